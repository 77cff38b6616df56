import CGtk

/// A permission question as a native message dialog: what the server asks, Deny and Allow.
/// Closing it (Escape, the close button) denies. `withdraw` takes it away without an answer.
@MainActor
package final class PermissionPrompt {
    private var dialog: WidgetPointer?
    private var response: SignalConnection?
    private let answered: @MainActor (Bool) -> Void

    package init(heading: String, body: String, parent: WidgetPointer?, answered: @escaping @MainActor (Bool) -> Void) {
        self.answered = answered
        let dialog = adw_message_dialog_new(asWindow(parent), heading, body)!
        let message = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwMessageDialog.self)
        adw_message_dialog_add_response(message, "deny", "_Deny")
        adw_message_dialog_add_response(message, "allow", "_Allow")
        adw_message_dialog_set_response_appearance(message, "allow", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(message, "deny")
        adw_message_dialog_set_close_response(message, "deny")
        response = onAlertResponse(dialog) { [weak self] id in self?.responded(id == "allow") }
        self.dialog = dialog
        gtk_window_present(cast(dialog))
    }

    private func responded(_ allow: Bool) {
        guard dialog != nil else { return }
        dialog = nil  // the dialog closes itself after a response
        answered(allow)
    }

    /// Takes the dialog away without an answer.
    package func withdraw() {
        guard let dialog else { return }
        self.dialog = nil
        response?.disconnect()
        gtk_window_destroy(cast(dialog))
    }
}
