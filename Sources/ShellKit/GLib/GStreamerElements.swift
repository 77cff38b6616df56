import Glibc

/// Which GStreamer elements this machine has, asked of GStreamer's own registry — the one
/// WebKit's media player reads — for `hostshell doctor`. GStreamer is loaded at run time
/// (WebKitGTK links it, so it is there wherever HostShell runs; no -dev package or C shim for
/// four calls), and only by the process that asks.
package enum GStreamerElements {
    private typealias Initialize = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    private typealias FindFactory = @convention(c) (UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
    private typealias Unref = @convention(c) (UnsafeMutableRawPointer) -> Void

    /// The names in `names` that GStreamer has a factory for; nil when GStreamer cannot be
    /// loaded or started.
    package static func present(_ names: [String]) -> Set<String>? {
        // Kept loaded: GStreamer, once started, is not made to be unloaded.
        guard let library = dlopen("libgstreamer-1.0.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
        guard let initSymbol = dlsym(library, "gst_init_check"), let findSymbol = dlsym(library, "gst_element_factory_find"),
              let unrefSymbol = dlsym(library, "gst_object_unref") else { return nil }
        // Why the casts: dlsym gives untyped addresses; these are the functions' C signatures.
        let initialize = unsafeBitCast(initSymbol, to: Initialize.self)
        let find = unsafeBitCast(findSymbol, to: FindFactory.self)
        let unref = unsafeBitCast(unrefSymbol, to: Unref.self)
        guard initialize(nil, nil, nil) != 0 else { return nil }
        var found = Set<String>()
        for name in names {
            guard let factory = find(name) else { continue }
            found.insert(name)
            unref(factory)
        }
        return found
    }
}
