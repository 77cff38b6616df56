import CGtk
import ShellKit
import StudioContract

/// A Studio alert as a native message dialog: its title, message and one to three buttons
/// styled by role (destructive in red, the first default button suggested). Only a button
/// press answers it: Escape counts as the cancel button when there is one, and otherwise
/// does nothing. `withdraw` takes it away without an answer.
@MainActor
package final class AlertDialog {
    let request: AlertRequest
    private let parent: WidgetPointer?
    private var dialog: WidgetPointer?
    private var response: SignalConnection?
    private let answered: @MainActor (String) -> Void
    private static let noAnswer = "hostshell-no-answer"

    init(_ request: AlertRequest, parent: WidgetPointer?, answered: @escaping @MainActor (String) -> Void) {
        self.request = request
        self.parent = parent
        self.answered = answered
        present()
    }

    private func present() {
        let window = asWindow(parent)
        let dialog = adw_message_dialog_new(window, request.title, request.message)!
        let message = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwMessageDialog.self)
        for action in request.actions {
            adw_message_dialog_add_response(message, action.id, action.label)
            switch action.effectiveRole {
            case .destructive: adw_message_dialog_set_response_appearance(message, action.id, ADW_RESPONSE_DESTRUCTIVE)
            case .cancel, .default: break
            }
        }
        if let primary = request.actions.first(where: { $0.effectiveRole == .default }) {
            if request.actions.count > 1 { adw_message_dialog_set_response_appearance(message, primary.id, ADW_RESPONSE_SUGGESTED) }
            adw_message_dialog_set_default_response(message, primary.id)
        }
        adw_message_dialog_set_close_response(message, request.actions.first(where: { $0.effectiveRole == .cancel })?.id ?? Self.noAnswer)
        response = onAlertResponse(dialog) { [weak self] id in self?.responded(id ?? Self.noAnswer) }
        self.dialog = dialog
        gtk_window_present(cast(dialog))
    }

    private func responded(_ id: String) {
        dialog = nil  // the dialog closes itself after a response
        guard request.actions.contains(where: { $0.id == id }) else {
            present()  // Escape without a cancel button: the alert stays until a button is pressed
            return
        }
        answered(id)
    }

    /// The control interface's answer, as if the person pressed that button.
    func press(_ id: String) -> Bool {
        guard request.actions.contains(where: { $0.id == id }) else { return false }
        withdraw()
        answered(id)
        return true
    }

    /// Takes the dialog away without an answer.
    func withdraw() {
        guard let dialog else { return }
        self.dialog = nil
        response?.disconnect()
        gtk_window_destroy(cast(dialog))
    }
}
