import CGtk
import HostCore
import ShellKit
import StudioContract

/// The share panel for content Studio shares: what is shared, and the ways a Linux desktop has
/// to pass it on — copy the link or the text, open the link in the browser, send it by e-mail.
/// Reports the choice (or "cancel").
@MainActor
package final class SharePanel {
    let request: ShareRequest
    private var dialog: WidgetPointer?
    private var response: SignalConnection?
    /// Where Open and E-mail hand the address to the desktop (the app's `AppEnvironment.handoff`).
    private let handoff: DesktopHandoff
    private let chosen: @MainActor (String) -> Void

    /// The choices this content offers, in order.
    var choices: [String] {
        var list: [String] = []
        if request.url != nil { list += ["copy-link", "open"] }
        if request.text != nil { list.append("copy-text") }
        list += ["email", "cancel"]
        return list
    }

    init(_ request: ShareRequest, parent: WidgetPointer?, handoff: DesktopHandoff, chosen: @escaping @MainActor (String) -> Void) {
        self.request = request
        self.handoff = handoff
        self.chosen = chosen
        let window = asWindow(parent)
        let body = [request.text, request.url].compactMap { $0 }.joined(separator: "\n")
        let dialog = adw_message_dialog_new(window, request.title ?? "Share", body)!
        let message = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwMessageDialog.self)
        let labels = ["copy-link": "Copy _Link", "open": "_Open in Browser", "copy-text": "Copy _Text", "email": "_E-mail", "cancel": "_Cancel"]
        for choice in choices { adw_message_dialog_add_response(message, choice, labels[choice]) }
        adw_message_dialog_set_close_response(message, "cancel")
        adw_message_dialog_set_default_response(message, choices.first)
        response = onAlertResponse(dialog) { [weak self] id in self?.respond(id ?? "cancel", closing: false) }
        self.dialog = dialog
        gtk_window_present(cast(dialog))
    }

    /// The choice made (from the dialog, or the control interface); false for one not offered.
    @discardableResult
    func respond(_ choice: String, closing: Bool = true) -> Bool {
        guard choices.contains(choice) else { return false }
        if closing, let dialog {
            response?.disconnect()
            gtk_window_destroy(cast(dialog))
        }
        dialog = nil
        perform(choice)
        chosen(choice)
        return true
    }

    private func perform(_ choice: String) {
        switch choice {
        case "copy-link": copy(request.url ?? "")
        case "copy-text": copy(request.text ?? "")
        case "open": if let url = request.url { handoff.open(url, reason: "a person chose Open in the share panel") }
        case "email":
            let subject = FormEncoding.escape(request.title ?? "")
            let body = FormEncoding.escape([request.text, request.url].compactMap { $0 }.joined(separator: "\n"))
            handoff.open("mailto:?subject=\(subject)&body=\(body)", reason: "a person chose E-mail in the share panel")
        default: break
        }
    }

    private func copy(_ text: String) {
        guard let display = gdk_display_get_default() else { return }
        gdk_clipboard_set_text(gdk_display_get_clipboard(display), text)
    }

    /// What is on the clipboard now (for the state dump after a copy), read back asynchronously.
    static func clipboardText(_ done: @escaping @MainActor (String?) -> Void) {
        guard let display = gdk_display_get_default() else { return done(nil) }
        gdk_clipboard_read_text_async(gdk_display_get_clipboard(display), nil, AsyncReply.callback, AsyncReply.data { source, result in
            done(takeGString(gdk_clipboard_read_text_finish(OpaquePointer(source), result, nil)))
        })
    }
}
