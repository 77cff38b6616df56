import CGtk

/// The C pointer shapes HostShell uses. `WebKitWebView` is a complete struct and imports as a
/// typed pointer; most other WebKit, JSC and GLib types are opaque.
package typealias WebViewPointer = UnsafeMutablePointer<WebKitWebView>
package typealias NetworkSessionPointer = OpaquePointer     // WebKitNetworkSession*
package typealias ContentManagerPointer = OpaquePointer     // WebKitUserContentManager*
package typealias JSValuePointer = OpaquePointer            // JSCValue*

/// Takes ownership of a `char*` GLib allocated and returns it as a Swift string.
package func takeGString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

/// Drops one GObject reference; the cast is the C upcast every GObject pointer allows.
package func unref(_ object: OpaquePointer?) {
    guard let object else { return }
    g_object_unref(UnsafeMutableRawPointer(object))
}
