import CGtk
import HostCore

/// The pasteboard: the clipboard of the app's display (the one WebKit reads for the page's
/// `navigator.clipboard.readText()` and a paste, and writes for `writeText` and a copy). Its
/// "changed" signal is watched so `ctl state` knows whether it holds text and how long (never
/// the text), whoever changed it.
extension SimulatorControls {
    private var clipboard: OpaquePointer? { gdk_display_get_default().flatMap { gdk_display_get_clipboard($0) } }

    /// Watches the clipboard's changes (once).
    package func attachPasteboard() {
        guard pasteboardSignal == nil, let clipboard else { return }
        pasteboardSignal = onSignal(UnsafeMutableRawPointer(clipboard), "changed") { [weak self] in
            guard let self else { return }
            self.pasteboardChanges += 1
            self.readPasteboard { _ in }
        }
        readPasteboard { _ in }
    }

    /// `ctl state`'s `pasteboard`.
    var pasteboardJSON: JSONValue {
        ["hasText": .bool(pasteboardText != nil), "length": .number(Double(pasteboardText?.count ?? 0)),
         "changes": .number(Double(pasteboardChanges))]
    }

    func pasteboard(_ request: SimulatorCommand.PasteboardRequest, ok: @escaping @MainActor (JSONValue) -> Void,
                    fail: @escaping @MainActor (String) -> Void) {
        attachPasteboard()
        guard let clipboard else { return fail("the app has no display, so no pasteboard") }
        switch request {
        case .get:
            readPasteboard { text in ok(["text": text.map(JSONValue.string) ?? .null, "length": .number(Double(text?.count ?? 0))]) }
        case .set(let text):
            gdk_clipboard_set_text(clipboard, text)
            pasteboardText = text
            ok(["message": .string("the pasteboard holds \(text.count) characters")])
        case .setFile(let path):
            let bytes: [UInt8]
            do throws(UsageError) { bytes = try FileReading.bytes(path, limit: SimulatorCommand.maxPasteboardBytes) } catch { return fail(error.message) }
            guard let text = String(validating: bytes, as: UTF8.self) else { return fail("\(path) is not UTF-8 text: the pasteboard takes text") }
            pasteboard(.set(text: text), ok: ok, fail: fail)
        }
    }

    /// Empties the pasteboard (`erase`): after it the page and `pasteboard get` read nothing.
    func clearPasteboard() {
        attachPasteboard()
        guard let clipboard else { return }
        gdk_clipboard_set_content(clipboard, nil)
        pasteboardText = nil
    }

    /// Reads the clipboard's text (nil: it holds none) and keeps it for the state.
    private func readPasteboard(_ done: @escaping @MainActor (String?) -> Void) {
        guard let clipboard else { return done(nil) }
        gdk_clipboard_read_text_async(clipboard, nil, AsyncReply.callback, AsyncReply.data { [weak self] _, result in
            var error: UnsafeMutablePointer<GError>?
            let raw = gdk_clipboard_read_text_finish(clipboard, result, &error)
            if let error { g_error_free(error) }
            let text = raw.map { String(cString: $0) }
            g_free(raw)
            self?.pasteboardText = text
            done(text)
        })
    }
}
