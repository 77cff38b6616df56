import CapacitorContract
import HostCore

/// The scripts that make a page a Capacitor app's page (contract §1–2), pinned as the Studio
/// bridge is (see `BridgeScripts`): the real `bridge` handler lives in an isolated world, whose
/// relay checks `location.origin` before forwarding; the page world gets, in its main frame on
/// the app's origin only and before any app script, `window.webkit.messageHandlers.bridge`
/// (so the app's own `@capacitor/core` reports `ios`) and `window.Capacitor` with its
/// transport, `PluginHeaders`, console forwarding and error reports. Frames and other origins
/// get nothing. Every constant is JSON-encoded into the script; no message content ever is.
package struct CapacitorScripts {
    static let worldName = "hostshell-capacitor"
    static let handlerName = "bridge"

    let runtime: String
    let relay: String
    /// Hands a JSON array of results to `window.Capacitor.fromNative` (argument `results`).
    let deliver: String

    /// `origin` as `location.origin` spells it; `headers` is `PluginHeaders`; `channel` names
    /// the events between the worlds (random per page).
    init(origin: String, headers: JSONValue, channel: String) {
        func literal(_ s: String) -> String { JSONWriter.string(.string(s)) }
        let request = literal("hostshell-capacitor-request-" + channel)
        let response = literal("hostshell-capacitor-response-" + channel)
        let originText = literal(origin)
        let maxBytes = CapacitorWire.maxMessageBytes
        runtime = """
        (() => {
          "use strict";
          const origin = \(originText);
          if (window.top !== window || location.origin !== origin) return;
          const headers = \(JSONWriter.string(headers));
          const callbacks = new Map();
          const seed = new Uint32Array(1);
          crypto.getRandomValues(seed);
          let lastId = seed[0] >>> 5;
          const post = (message) => {
            const text = JSON.stringify(message);
            if (text.length > \(maxBytes)) throw new Error("the message is larger than \(maxBytes) bytes");
            window.dispatchEvent(new CustomEvent(\(request), { detail: text }));
          };
          const handlers = Object.freeze({ \(Self.handlerName): Object.freeze({ postMessage: (message) => { post(message); } }) });
          Object.defineProperty(window, "webkit", { value: Object.freeze({ messageHandlers: handlers }), configurable: false, writable: false });
          class CapacitorException extends Error {
            constructor(message, code, data) { super(message); this.message = message; this.code = code; this.data = data; }
          }
          const cap = window.Capacitor = window.Capacitor || {};
          cap.Plugins = cap.Plugins || {};
          cap.PluginHeaders = headers;
          cap.DEBUG = false;
          cap.isLoggingEnabled = false;
          cap.platform = "ios";
          cap.getPlatform = () => "ios";
          cap.isNativePlatform = () => true;
          cap.isPluginAvailable = (name) => headers.some((header) => header.name === name);
          cap.Exception = cap.Exception || CapacitorException;
          cap.getServerUrl = () => origin;
          window.WEBVIEW_SERVER_URL = origin;
          cap.convertFileSrc = (path) => {
            if (typeof path !== "string" || !path) return path;
            if (path.startsWith("/")) return origin + "/_capacitor_file_" + path;
            if (path.startsWith("file://")) return origin + path.replace("file://", "/_capacitor_file_");
            return path;
          };
          cap.toNative = (pluginId, methodName, options, stored) => {
            let callbackId = "-1";
            if (stored && (typeof stored.callback === "function" || typeof stored.resolve === "function")) {
              callbackId = String(++lastId);
              callbacks.set(callbackId, stored);
            }
            if (methodName === "removeListener" && options && typeof options.callbackId === "string") callbacks.delete(options.callbackId);
            try {
              post({ type: "message", callbackId, pluginId, methodName, options: options || {} });
            } catch (error) {
              callbacks.delete(callbackId);
              const failure = new cap.Exception(String(error && error.message || error), "EXCEPTION");
              if (stored && typeof stored.reject === "function") stored.reject(failure);
              else console.error(failure);
            }
            return callbackId;
          };
          cap.nativeCallback = (pluginId, methodName, options, callback) => {
            if (typeof options === "function") { callback = options; options = null; }
            return cap.toNative(pluginId, methodName, options, { callback });
          };
          cap.nativePromise = (pluginId, methodName, options) =>
            new Promise((resolve, reject) => { cap.toNative(pluginId, methodName, options, { resolve, reject }); });
          cap.fromNative = (result) => {
            try {
              const stored = callbacks.get(result.callbackId);
              if (stored) {
                if (result.error) result.error = Object.assign(new cap.Exception(String(result.error.message)), result.error);
                if (typeof stored.callback === "function") {
                  if (result.success) stored.callback(result.data); else stored.callback(null, result.error);
                } else if (typeof stored.resolve === "function") {
                  if (result.success) stored.resolve(result.data); else stored.reject(result.error);
                  callbacks.delete(result.callbackId);
                }
              }
              if (result.save === false) callbacks.delete(result.callbackId);
            } catch (error) { console.error(error); }
          };
          cap.triggerEvent = (eventName, target, eventData) => {
            const event = document.createEvent("Events");
            event.initEvent(eventName, false, false);
            if (eventData && typeof eventData === "object") Object.assign(event, eventData);
            if (target === "document") return document.dispatchEvent(event);
            if (target === "window") return window.dispatchEvent(event);
            const element = document.querySelector(target);
            return element ? element.dispatchEvent(event) : false;
          };
          window.addEventListener(\(response), (event) => {
            let results;
            try { results = JSON.parse(event.detail); } catch (_) { return; }
            if (Array.isArray(results)) for (const result of results) cap.fromNative(result);
          });
          const show = (value) => {
            if (typeof value === "string") return value;
            if (value instanceof Error) return value.stack || String(value);
            try { return JSON.stringify(value); } catch (_) { return String(value); }
          };
          const original = {};
          for (const level of ["debug", "error", "info", "log", "trace", "warn"]) {
            original[level] = console[level];
            console[level] = function (...args) {
              try { post({ type: "message", pluginId: "Console", methodName: "log", options: { level, message: args.map(show).join(" ") } }); } catch (_) {}
              return original[level].apply(console, args);
            };
          }
          cap.logJs = (message, level) => { (console[level] || console.log)(message); };
          window.addEventListener("error", (event) => {
            try {
              post({ type: "js.error", error: { message: String(event.message), url: String(event.filename || ""), line: event.lineno, col: event.colno, errorObject: show(event.error) } });
            } catch (_) {}
          });
        })();
        """
        relay = """
        (() => {
          "use strict";
          const origin = \(originText);
          if (window.top !== window) return;
          window.addEventListener(\(request), (event) => {
            const detail = event.detail;
            if (typeof detail !== "string" || location.origin !== origin || detail.length > \(maxBytes)) return;
            window.webkit.messageHandlers.\(Self.handlerName).postMessage(detail).then((reply) => {
              if (typeof reply === "string" && reply !== "[]") window.dispatchEvent(new CustomEvent(\(response), { detail: reply }));
            }, () => {});
          });
        })();
        """
        deliver = """
        const cap = window.Capacitor;
        if (location.origin !== \(originText) || !cap || typeof cap.fromNative !== "function") return false;
        for (const result of JSON.parse(results)) cap.fromNative(result);
        return true;
        """
    }
}
