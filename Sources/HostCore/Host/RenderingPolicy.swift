/// How GTK and WebKit draw on this machine. With a GPU, both keep their defaults. Without one (no
/// `/dev/dri/renderD*` node: virtual machines, CI under Xvfb, many kiosks) or when Mesa is told
/// to rasterize in software, GL is Mesa's llvmpipe, and both defaults cost more than drawing on
/// the CPU directly:
/// - GTK's GL renderer reached "negotiated and chrome drawn" ~170 ms later than its cairo
///   renderer under Xvfb;
/// - WebKit paints with Skia through GL, and llvmpipe compiles every shader with LLVM in each new
///   web process: a sheet page's first frames cost ~140 ms each, and opening a prewarmed sheet
///   took 250–460 ms to Studio's paint instead of ~80 ms with Skia's CPU painting;
/// - WebKit's accelerated compositing, with nothing to accelerate it, keeps tiles and layer
///   buffers per page and a compositing thread: painting into the view directly
///   (`WEBKIT_DISABLE_COMPOSITING_MODE`) cut the PSS of each extra host from ~163 to ~112 MiB
///   and opened sheets no slower (the many-hosts and sheets benchmarks, 2026-12-01).
/// A variable already in the environment always wins, so a user can choose either way.
public struct RenderingChoice: Sendable, Equatable {
    public enum WebPainting: String, Sendable { case gpu, cpu }

    /// GTK's renderer: one the environment or this choice names, or nil for GTK's own choice.
    public var gtkRenderer: String?
    public var webPainting: WebPainting
    /// Whether WebKit composites its layers (off when it would do it in software).
    public var webCompositing: Bool
    /// Why, in a few words (state reports show it).
    public var reason: String
    /// Environment variables to set before GTK and WebKit start, none the environment has.
    public var settings: [EnvironmentSetting]

    public struct EnvironmentSetting: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public var json: JSONValue {
        ["gtkRenderer": .string(gtkRenderer ?? "default"), "webPainting": .string(webPainting.rawValue),
         "webCompositing": .bool(webCompositing), "reason": .string(reason)]
    }
}

public enum RenderingPolicy {
    static let gtkRendererVariable = "GSK_RENDERER"
    /// WebKit reads it in each web process: any value but "0" paints on the CPU.
    static let cpuPaintingVariable = "WEBKIT_SKIA_ENABLE_CPU_RENDERING"
    static let softwareGLVariable = "LIBGL_ALWAYS_SOFTWARE"
    /// WebKit reads it in each web process: any value but "0" turns accelerated compositing off.
    static let compositingOffVariable = "WEBKIT_DISABLE_COMPOSITING_MODE"
    /// The variables a choice may set, in the order `hostshell bench rendering` reports them.
    public static let variables = [gtkRendererVariable, cpuPaintingVariable, compositingOffVariable]

    /// `hasGPURenderNode`: whether `/dev/dri` holds a `renderD*` node; `environment` looks a
    /// variable up.
    public static func choose(hasGPURenderNode: Bool, environment: (String) -> String?) -> RenderingChoice {
        let forcedSoftware = environment(softwareGLVariable).map { !$0.isEmpty && $0 != "0" && $0.lowercased() != "false" } ?? false
        let software = !hasGPURenderNode || forcedSoftware
        var settings: [RenderingChoice.EnvironmentSetting] = []

        var gtkRenderer = environment(gtkRendererVariable)
        if gtkRenderer == nil && software {
            gtkRenderer = "cairo"
            settings.append(.init(name: gtkRendererVariable, value: "cairo"))
        }

        let painting: RenderingChoice.WebPainting
        let reason: String
        if let value = environment(cpuPaintingVariable) {
            painting = value == "0" ? .gpu : .cpu
            reason = "\(cpuPaintingVariable) is set in the environment"
        } else if software {
            painting = .cpu
            settings.append(.init(name: cpuPaintingVariable, value: "1"))
            reason = forcedSoftware ? "\(softwareGLVariable) is set: GL is software" : "no GPU render node: GL would be software"
        } else {
            painting = .gpu
            reason = "a GPU render node is present"
        }
        let compositing: Bool
        if let value = environment(compositingOffVariable) {
            compositing = value == "0"
        } else if painting == .cpu {
            compositing = false
            settings.append(.init(name: compositingOffVariable, value: "1"))
        } else {
            compositing = true
        }
        return RenderingChoice(gtkRenderer: gtkRenderer, webPainting: painting, webCompositing: compositing, reason: reason, settings: settings)
    }
}
