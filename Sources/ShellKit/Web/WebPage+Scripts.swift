import CGtk
import HostCore

extension WebPage {
    /// Runs `body` as an async function (its promise awaited) in `world` (nil: the page world)
    /// and reports its value as JSON, or the exception's message.
    package func callAsync(_ body: String, world: String?, done: @escaping @MainActor (Result<JSONValue, ControlError>) -> Void) {
        let box = Unmanaged.passRetained(ScriptResultBox(done)).toOpaque()
        webkit_web_view_call_async_javascript_function(view, body, -1, nil, world, nil, nil, { source, result, data in
            var error: UnsafeMutablePointer<GError>? = nil
            let value = webkit_web_view_call_async_javascript_function_finish(WebViewPointer(OpaquePointer(source)), result, &error)
            ScriptResultBox.finish(data, value: value, error: &error)
        }, box)
    }
}

/// Carries a script's completion through WebKit's callback to the caller. WebKit calls back on
/// the main thread, where it was made, so it never actually crosses threads.
package final class ScriptResultBox: @unchecked Sendable {
    let done: @MainActor (Result<JSONValue, ControlError>) -> Void
    init(_ done: @escaping @MainActor (Result<JSONValue, ControlError>) -> Void) { self.done = done }

    /// Releases the box passed as `data` and hands it the value (undefined as null) or the error.
    static func finish(_ data: UnsafeMutableRawPointer?, value: OpaquePointer?, error: inout UnsafeMutablePointer<GError>?) {
        let outcome: Result<JSONValue, ControlError>
        if let value {
            let json = jsc_value_is_undefined(value) != 0 ? nil : takeGString(jsc_value_to_json(value, 0))
            outcome = .success(json.flatMap { try? JSONParser.parse($0) } ?? .null)
        } else {
            outcome = .failure(ControlError(error.map { String(cString: $0.pointee.message) } ?? "no value"))
        }
        unref(value)
        g_clear_error(&error)
        let box = Unmanaged<ScriptResultBox>.fromOpaque(data!)
        MainActor.assumeIsolated { box.takeRetainedValue().done(outcome) }
    }
}
