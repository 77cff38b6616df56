import HostCore
import StudioContract

/// The two scripts that give a page the Studio bridge, pinned to the main frame of the server's
/// origin (ARCHITECTURE.md "WebKit facts"): the message handler lives in an isolated script
/// world; the page world gets only a shim whose `postMessage` hands JSON text across as a
/// `CustomEvent` string; the relay in the isolated world checks `location.origin` before
/// forwarding. Both are injected into the top frame only, so subframes get no handler at all.
/// A message over `BridgeMessageSize.maxBytes` is refused as `malformed` by the shim and, for a
/// page that dispatches the request event itself, by the relay, before it is copied across.
/// The relay counts the messages it forwarded whose replies the page has not yet been handed:
/// `repliesRunCall` waits for there to be none (the host asks before it releases a page it let
/// go of). Every constant is JSON-encoded into the script; no message content is ever part of a
/// script.
package struct BridgeScripts {
    /// The isolated world that holds the real handler.
    static let worldName = "hostshell-bridge"
    static let handlerName = "tilecastNative"

    let pageShim: String
    let relay: String

    /// `serverOrigin` as `location.origin` spells it (no default port). `channel` names the
    /// events; a fresh random one per page keeps unrelated scripts from colliding with them.
    init(serverOrigin: Origin, channel: String) {
        func literal(_ s: String) -> String { JSONWriter.string(.string(s)) }
        let request = literal("hostshell-request-" + channel)
        let response = literal("hostshell-response-" + channel)
        let forbidden = literal(Reply.failure(id: nil, code: .forbidden).text)
        let unavailable = literal(Reply.failure(id: nil, code: .unavailable).text)
        let malformed = literal(Reply.failure(id: nil, code: .malformed).text)
        let maxBytes = BridgeMessageSize.maxBytes
        pageShim = """
        (() => {
          "use strict";
          const pending = new Map();
          let next = 0;
          window.addEventListener(\(response), (event) => {
            let data;
            try { data = JSON.parse(event.detail); } catch (_) { return; }
            const resolve = pending.get(data.seq);
            if (!resolve) return;
            pending.delete(data.seq);
            let reply;
            try { reply = JSON.parse(data.reply); } catch (_) { reply = undefined; }
            resolve(reply);
          });
          const postMessage = (message) => new Promise((resolve) => {
            let text;
            try { text = JSON.stringify(message); } catch (_) { text = undefined; }
            if (typeof text !== "string") text = "null";
            // Over the size limit in UTF-16 units is over it in UTF-8 bytes: refused here, never copied.
            if (text.length > \(maxBytes)) { resolve(JSON.parse(\(malformed))); return; }
            const seq = ++next;
            pending.set(seq, resolve);
            window.dispatchEvent(new CustomEvent(\(request), { detail: seq + ":" + text }));
          });
          const handlers = Object.freeze({ \(Self.handlerName): Object.freeze({ postMessage }) });
          Object.defineProperty(window, "webkit", {
            value: Object.freeze({ messageHandlers: handlers }), configurable: false, writable: false
          });
        })();
        """
        relay = """
        (() => {
          "use strict";
          const origin = \(literal(serverOrigin.description));
          // UTF-8 bytes of detail from `from`, counted no further than just past `max`.
          const utf8Length = (text, from, max) => {
            const units = text.length - from;
            if (units > max) return max + 1;
            if (units * 3 <= max) return units;
            let bytes = 0;
            for (let i = from; i < text.length && bytes <= max; i++) {
              const c = text.charCodeAt(i);
              if (c < 0x80) bytes += 1;
              else if (c < 0x800) bytes += 2;
              else if (c >= 0xD800 && c < 0xDC00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xFC00) === 0xDC00) { bytes += 4; i++; }
              else bytes += 3;
            }
            return bytes;
          };
          // Messages on their way whose replies the page has not been handed yet, and who waits
          // for there to be none. Only this world sees them.
          let unanswered = 0;
          const waiting = [];
          const settle = () => { if (unanswered === 0) for (const done of waiting.splice(0)) done(true); };
          Object.defineProperty(window, \(literal(Self.repliesRunName)), {
            value: () => new Promise((done) => { waiting.push(done); settle(); })
          });
          window.addEventListener(\(request), async (event) => {
            // "SEQ:TEXT": the sequence number is read without touching the rest, which is
            // measured before it is copied to the host.
            const detail = event.detail;
            if (typeof detail !== "string") return;
            const colon = detail.slice(0, 17).indexOf(":");
            const seq = Number(detail.slice(0, colon));
            if (colon < 1 || !Number.isSafeInteger(seq)) return;
            unanswered++;
            let reply = \(forbidden);
            if (window.top === window && location.origin === origin) {
              if (utf8Length(detail, colon + 1, \(maxBytes)) > \(maxBytes)) {
                reply = \(malformed);
              } else {
                try {
                  // Text the host can decode: a lone surrogate becomes U+FFFD, as toWellFormed()
                  // does (UTF-8 cannot carry it; JSON.parse would have taken it).
                  const text = detail.slice(colon + 1);
                  const answer = await window.webkit.messageHandlers.\(Self.handlerName).postMessage(
                    typeof text.toWellFormed === "function" ? text.toWellFormed() : text);
                  // A page the host has let go of (a discarded sheet page, kept until its
                  // replies have run) gets no reply, only WebKit's refusal: it is unavailable,
                  // never left hanging.
                  reply = typeof answer === "string" ? answer : \(unavailable);
                } catch (_) {
                  reply = \(unavailable);
                }
              }
            }
            // The page's promise resolves here: its callbacks run before anything this settles.
            window.dispatchEvent(new CustomEvent(\(response), { detail: JSON.stringify({ seq, reply: String(reply) }) }));
            unanswered--;
            settle();
          });
        })();
        """
    }

    /// Where the relay's world keeps the wait for the replies on their way.
    static let repliesRunName = "hostshellRepliesRun"
    /// Run in `worldName`: resolves once every message the relay forwarded has its reply handed
    /// to the page (and the page's callbacks waiting on those replies have run).
    static let repliesRunCall = "return await window.\(repliesRunName)();"

    /// The call that delivers a host message: the message is an argument, never script text.
    static let receiverCall = """
        const receive = window.tilecastNativeReceiver;
        return typeof receive === "function" && receive(JSON.parse(message)) === true;
        """
}
