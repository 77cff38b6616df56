import CGtk
import ShellKit
import StudioContract

/// The Studio bridge's way in: registers `tilecastNative` (with reply) in the isolated world of
/// one content manager, injects the page shim and the relay, and answers each message with the
/// reply text `handler` returns. One hop: JSON text in, reply text out. It owns the reference
/// to the content manager it is given (the one `webkit_user_content_manager_new` returned) and
/// drops it in `close`, after unregistering: the web view holds its own.
@MainActor
package final class ScriptMessageChannel {
    private let manager: ContentManagerPointer
    private var message: SignalConnection?
    var handler: (String) -> String = { _ in Reply.failure(id: nil, code: .unavailable).text }

    init(manager: ContentManagerPointer, scripts: BridgeScripts) {
        self.manager = manager
        for (source, world) in [(scripts.pageShim, nil as String?), (scripts.relay, BridgeScripts.worldName)] {
            let script: OpaquePointer? = if let world {
                webkit_user_script_new_for_world(source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                                 WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, nil, nil)
            } else {
                webkit_user_script_new(source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                       WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
            }
            webkit_user_content_manager_add_script(manager, script)
            webkit_user_script_unref(script)
        }
        // Connect before registering, so no message can arrive unheard.
        // The handler holds the channel weakly: its page holds it until `close`.
        message = onReplyMessage(manager, handler: BridgeScripts.handlerName) { [weak self] value, reply in self?.receive(value, reply) }
        webkit_user_content_manager_register_script_message_handler_with_reply(manager, BridgeScripts.handlerName,
                                                                               BridgeScripts.worldName)
    }

    /// Stops listening.
    package func close() {
        guard let message else { return }
        webkit_user_content_manager_unregister_script_message_handler(manager, BridgeScripts.handlerName, BridgeScripts.worldName)
        message.disconnect()
        self.message = nil
        g_object_unref(UnsafeMutableRawPointer(manager))
    }

    private func receive(_ value: JSValuePointer, _ reply: OpaquePointer) {
        // The relay forwards the page's JSON text as a string; anything else is not JSON text.
        let answer = handler(javaScriptText(value) ?? "null")
        let result = jsc_value_new_string(jsc_value_get_context(value), answer)
        webkit_script_message_reply_return_value(reply, result)
        unref(result)
    }
}

