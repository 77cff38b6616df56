import CGtk
import HostCore

extension WebPage {
    /// Runs `body` as an async function (its promise awaited) in `world` (nil: the page world)
    /// and reports its value as JSON, or the exception's message.
    package func callAsync(_ body: String, world: String?, done: @escaping @MainActor (Result<JSONValue, ControlError>) -> Void) {
        webkit_web_view_call_async_javascript_function(view, body, -1, nil, world, nil, nil, AsyncReply.callback, AsyncReply.data { source, result in
            var error: UnsafeMutablePointer<GError>? = nil
            let value = webkit_web_view_call_async_javascript_function_finish(WebViewPointer(OpaquePointer(source)), result, &error)
            done(Self.scriptOutcome(value, &error))
        })
    }

    /// A script's value (undefined as null) or the error's message; the value and the error are freed.
    static func scriptOutcome(_ value: OpaquePointer?, _ error: inout UnsafeMutablePointer<GError>?) -> Result<JSONValue, ControlError> {
        let outcome: Result<JSONValue, ControlError>
        if let value {
            let json = jsc_value_is_undefined(value) != 0 ? nil : takeGString(jsc_value_to_json(value, 0))
            outcome = .success(json.flatMap { try? JSONParser.parse($0) } ?? .null)
        } else {
            outcome = .failure(ControlError(error.map { String(cString: $0.pointee.message) } ?? "no value"))
        }
        unref(value)
        g_clear_error(&error)
        return outcome
    }
}
