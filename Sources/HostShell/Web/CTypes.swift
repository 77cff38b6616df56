import CGtk

/// The C pointer shapes HostShell uses. `WebKitWebView` is a complete struct and imports as a
/// typed pointer; most other WebKit, JSC and GLib types are opaque.
typealias WebViewPointer = UnsafeMutablePointer<WebKitWebView>
typealias NetworkSessionPointer = OpaquePointer     // WebKitNetworkSession*
typealias ContentManagerPointer = OpaquePointer     // WebKitUserContentManager*
typealias JSValuePointer = OpaquePointer            // JSCValue*

/// Takes ownership of a `char*` GLib allocated and returns it as a Swift string.
func takeGString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

/// Drops one GObject reference; the cast is the C upcast every GObject pointer allows.
func unref(_ object: OpaquePointer?) {
    guard let object else { return }
    g_object_unref(UnsafeMutableRawPointer(object))
}
