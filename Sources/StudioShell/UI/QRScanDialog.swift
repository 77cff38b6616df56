import CGtk
import ShellKit

/// Scanning a QR code on a desktop without a camera: the person picks a picture of the code and
/// it is decoded (zbar). A picture without a code says so and lets them choose another. Reports
/// the text, or nil on Cancel.
@MainActor
package final class QRScanDialog {
    private let parent: WidgetPointer?
    private var dialog: WidgetPointer?
    private var response: SignalConnection?
    private var chooser: FileChooser?
    private var done: (@MainActor (String?) -> Void)?

    init(parent: WidgetPointer?, done: @escaping @MainActor (String?) -> Void) {
        self.parent = parent
        self.done = done
        ask("Choose a picture of the QR code. No camera was found on this computer.")
    }

    private func ask(_ body: String) {
        let window = asWindow(parent)
        let dialog = adw_message_dialog_new(window, "Scan a QR Code", body)!
        let message = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwMessageDialog.self)
        adw_message_dialog_add_response(message, "cancel", "_Cancel")
        adw_message_dialog_add_response(message, "choose", "_Choose Image…")
        adw_message_dialog_set_response_appearance(message, "choose", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(message, "choose")
        adw_message_dialog_set_close_response(message, "cancel")
        response = onAlertResponse(dialog) { [weak self] id in self?.responded(id ?? "cancel") }
        self.dialog = dialog
        gtk_window_present(cast(dialog))
    }

    private func responded(_ id: String) {
        dialog = nil
        guard id == "choose" else { return finish(nil) }
        chooser = FileChooser(title: "Choose a Picture of the QR Code", parent: parent, kinds: [.image], multiple: false) { [weak self] paths in
            guard let self else { return }
            self.chooser = nil
            guard let path = paths?.first else { return self.ask("Choose a picture of the QR code.") }
            self.use(image: path)
        }
    }

    /// Decodes `path`; a picture without a code asks again.
    func use(image path: String) {
        switch QRDecoder.decode(file: path) {
        case .success(let text): finish(text)
        case .failure(.noCode): closeDialog(); ask("No QR code was found in that picture. Choose another, or Cancel.")
        case .failure(.unreadable(let why)): closeDialog(); ask("That picture could not be read (\(why)). Choose another, or Cancel.")
        }
    }

    /// Ends the scan: with a value, or nil for cancelled (also when its page's document went away).
    func finish(_ value: String?) {
        closeDialog()
        chooser?.close()
        chooser = nil
        guard let done else { return }
        self.done = nil
        done(value)
    }

    private func closeDialog() {
        guard let dialog else { return }
        self.dialog = nil
        response?.disconnect()
        gtk_window_destroy(cast(dialog))
    }
}
