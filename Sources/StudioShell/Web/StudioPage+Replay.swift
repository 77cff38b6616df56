import HostCore
import ShellKit

extension StudioPage {
    /// Posts `message` to the host from the page, exactly as Studio's script does (through the
    /// page world's message handler), and reports the reply envelope. For `hostshell replay`.
    func postAsStudio(_ message: JSONValue, done: @escaping @MainActor (Result<JSONValue, ControlError>) -> Void) {
        // JSON text is a JavaScript expression: the message goes in as a literal.
        web.callAsync("return await window.webkit.messageHandlers.\(BridgeScripts.handlerName).postMessage(\(JSONWriter.string(message)));",
                  world: nil, done: done)
    }
}
