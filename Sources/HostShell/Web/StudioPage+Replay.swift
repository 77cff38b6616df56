import BridgeRuntime
import CGtk

extension StudioPage {
    /// Posts `message` to the host from the page, exactly as Studio's script does (through the
    /// page world's message handler), and reports the reply envelope. For `hostshell replay`.
    func postAsStudio(_ message: JSONValue, done: @escaping @MainActor (Result<JSONValue, ControlError>) -> Void) {
        // JSON text is a JavaScript expression: the message goes in as a literal.
        let body = "return await window.webkit.messageHandlers.\(BridgeScripts.handlerName).postMessage(\(JSONWriter.string(message)));"
        let box = Unmanaged.passRetained(ReplyBox(done)).toOpaque()
        webkit_web_view_call_async_javascript_function(view, body, -1, nil, nil, nil, nil, { source, result, data in
            let box = Unmanaged<ReplyBox>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>? = nil
            let value = webkit_web_view_call_async_javascript_function_finish(WebViewPointer(OpaquePointer(source)), result, &error)
            let outcome: Result<JSONValue, ControlError>
            if let value, let json = takeGString(jsc_value_to_json(value, 0)), let reply = try? JSONParser.parse(json) {
                outcome = .success(reply)
            } else {
                outcome = .failure(ControlError(error.map { String(cString: $0.pointee.message) } ?? "the page gave no reply"))
            }
            unref(value)
            g_clear_error(&error)
            MainActor.assumeIsolated { box.done(outcome) }
        }, box)
    }
}

private final class ReplyBox {
    let done: @MainActor (Result<JSONValue, ControlError>) -> Void
    init(_ done: @escaping @MainActor (Result<JSONValue, ControlError>) -> Void) { self.done = done }
}
