import BridgeRuntime

/// The two scripts that give a page the Studio bridge, pinned to the main frame of the server's
/// origin (ARCHITECTURE.md "WebKit facts"): the message handler lives in an isolated script
/// world; the page world gets only a shim whose `postMessage` hands JSON text across as a
/// `CustomEvent` string; the relay in the isolated world checks `location.origin` before
/// forwarding. Both are injected into the top frame only, so subframes get no handler at all.
/// Every constant is JSON-encoded into the script; no message content is ever part of a script.
struct BridgeScripts {
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
            const seq = ++next;
            pending.set(seq, resolve);
            window.dispatchEvent(new CustomEvent(\(request), { detail: JSON.stringify({ seq, text }) }));
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
          window.addEventListener(\(request), async (event) => {
            let request;
            try { request = JSON.parse(event.detail); } catch (_) { return; }
            let reply = \(forbidden);
            if (window.top === window && location.origin === origin) {
              try {
                reply = await window.webkit.messageHandlers.\(Self.handlerName).postMessage(String(request.text));
              } catch (_) {
                reply = \(unavailable);
              }
            }
            window.dispatchEvent(new CustomEvent(\(response), { detail: JSON.stringify({ seq: request.seq, reply: String(reply) }) }));
          });
        })();
        """
    }

    /// The call that delivers a host message: the message is an argument, never script text.
    static let receiverCall = """
        const receive = window.tilecastNativeReceiver;
        return typeof receive === "function" && receive(JSON.parse(message)) === true;
        """
}
