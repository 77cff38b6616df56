import CGtk
import ShellKit
import StudioContract

/// The desktop's file chooser (a portal where there is one) for media intake: filtered to the
/// kinds Studio asked for, one or several files. Reports the chosen paths, or nil on cancel.
@MainActor
package final class FileChooser {
    private let chooser: OpaquePointer  // GtkFileChooserNative, also a GtkFileChooser
    private var dialog: UnsafeMutablePointer<GtkNativeDialog> { UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkNativeDialog.self) }
    private var done: (@MainActor ([String]?) -> Void)?
    private var response: SignalConnection?

    init(title: String, parent: WidgetPointer?, kinds: [MediaKind], multiple: Bool, done: @escaping @MainActor ([String]?) -> Void) {
        self.done = done
        let window = asWindow(parent)
        chooser = gtk_file_chooser_native_new(title, window, GTK_FILE_CHOOSER_ACTION_OPEN, "_Upload", "_Cancel")!
        gtk_native_dialog_set_modal(dialog, 1)
        gtk_file_chooser_set_select_multiple(chooser, multiple ? 1 : 0)
        let filter = gtk_file_filter_new()!
        gtk_file_filter_set_name(filter, kinds == [.image] ? "Images" : kinds == [.video] ? "Videos" : "Images and videos")
        for kind in kinds { gtk_file_filter_add_mime_type(filter, kind == .image ? "image/*" : "video/*") }
        gtk_file_chooser_add_filter(chooser, filter)
        response = onDialogResponse(chooser) { [weak self] response in self?.respond(response) }
        gtk_native_dialog_show(dialog)
    }

    private func respond(_ response: Int32) {
        var paths: [String]? = nil
        if response == GTK_RESPONSE_ACCEPT.rawValue, let files = gtk_file_chooser_get_files(chooser) {
            paths = []
            for i in 0..<g_list_model_get_n_items(files) {
                let file = g_list_model_get_item(files, i)
                if let path = takeGString(g_file_get_path(OpaquePointer(file))) { paths?.append(path) }
                g_object_unref(file)
            }
            g_object_unref(UnsafeMutableRawPointer(files))
        }
        finish(paths)
    }

    /// Ends the chooser without a choice from it (the session closes, or files came another way).
    package func close(with paths: [String]? = nil) {
        gtk_native_dialog_hide(dialog)
        finish(paths)
    }

    private func finish(_ paths: [String]?) {
        guard let done else { return }
        self.done = nil
        response?.disconnect()
        gtk_native_dialog_destroy(dialog)
        g_object_unref(UnsafeMutableRawPointer(chooser))
        done(paths)
    }
}
