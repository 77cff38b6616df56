// swift-tools-version:6.0
import PackageDescription

// The target graph, one direction of dependency (docs/architecture.md "Targets";
// `scripts/check-layers` fails CI on an edge not listed there):
//
//   pure       HostCore ← StudioContract · Push ← CapacitorContract ← HomeSec
//   C shims    CGtk (GTK, WebKit, libadwaita, libsecret, zbar) · CHTTP2 (nghttp2, OpenSSL)
//   glue       ShellKit ← StudioShell · PushShell ← CapacitorShell ← HomeSecShell
//   dev        DevFixtures (reference apps and servers, demo, benchmarks)
//   executable HostShell (`hostshell`): the one place that wires them together.

let swift6: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    // Release builds optimise across the targets as they did within one module: the codec's
    // hot paths (HostCore's JSON tape, StudioContract's decoders) are generic and small, and
    // without this every call between targets stays an unspecialised call (the codec bench
    // halved when BridgeRuntime was split).
    .unsafeFlags(["-cross-module-optimization", "-Xfrontend", "-enable-cmo-everything"], .when(configuration: .release)),
    // Release modules are compiled against the static Swift runtime and Foundation, which the
    // executable links in (see its linker settings).
    .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
]

let package = Package(
    name: "HostShell",
    products: [
        .executable(name: "hostshell", targets: ["HostShell"]),
    ],
    targets: [
        // C shims: only what Swift cannot call itself (macros, varargs, GObject casts), as
        // static inline helpers; headers and link flags come from pkg-config.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "webkitgtk-6.0 libadwaita-1 libsecret-1",  // zbar: loaded on first use (qr.h)
            providers: [.apt(["libwebkitgtk-6.0-dev", "libgtk-4-dev", "libadwaita-1-dev", "libsecret-1-dev", "libzbar-dev"])]
        ),
        .systemLibrary(
            name: "CHTTP2",
            pkgConfig: "libnghttp2 openssl",
            providers: [.apt(["libnghttp2-dev", "libssl-dev"])]
        ),

        // Pure Swift: no GLib, GTK or WebKit; unit-tested without a display.
        // The host core: JSON, timers, screens, loading/kiosk/navigation/permission/download
        // policies, the control protocol, the bridge log's rules, terminal output.
        .target(name: "HostCore", swiftSettings: swift6,
                linkerSettings: [.linkedLibrary("m")]),  // Double.rounded() lowers to libm
        // The Studio bridge contract and Studio's host machines.
        .target(name: "StudioContract", dependencies: ["HostCore"], swiftSettings: swift6),
        // Push: APNs' provider API, the phone's side, Hermes.
        .target(name: "Push", dependencies: ["HostCore"], swiftSettings: swift6),
        // The Capacitor shell contract, with Capacitor's own plugins (PushNotifications uses Push).
        .target(name: "CapacitorContract", dependencies: ["HostCore", "Push"], swiftSettings: swift6),
        // HomeSec's own plugins and its reference server's rules.
        .target(name: "HomeSec", dependencies: ["HostCore", "Push", "CapacitorContract"], swiftSettings: swift6),

        // Glue: GTK/WebKit/libsoup, carrying out the pure targets' effects.
        .target(name: "ShellKit", dependencies: ["HostCore", "CGtk"], swiftSettings: swift6),
        .target(name: "StudioShell", dependencies: ["HostCore", "StudioContract", "ShellKit", "CGtk"], swiftSettings: swift6),
        .target(name: "PushShell", dependencies: ["HostCore", "Push", "ShellKit", "CGtk", "CHTTP2"], swiftSettings: swift6),
        .target(name: "CapacitorShell", dependencies: ["HostCore", "Push", "CapacitorContract", "ShellKit", "PushShell", "CGtk"],
                swiftSettings: swift6),
        .target(name: "HomeSecShell", dependencies: ["HostCore", "Push", "CapacitorContract", "HomeSec", "ShellKit", "CapacitorShell", "CGtk"],
                swiftSettings: swift6),

        // Reference apps and servers, the demo and the benchmarks: never imported by product code.
        .target(name: "DevFixtures",
                dependencies: ["HostCore", "StudioContract", "Push", "CapacitorContract", "HomeSec",
                               "ShellKit", "StudioShell", "PushShell", "CapacitorShell", "HomeSecShell", "CGtk", "CHTTP2"],
                swiftSettings: swift6),

        .executableTarget(
            name: "HostShell",
            dependencies: ["HostCore", "StudioContract", "Push", "CapacitorContract", "HomeSec",
                           "ShellKit", "StudioShell", "PushShell", "CapacitorShell", "HomeSecShell", "DevFixtures", "CGtk"],
            swiftSettings: swift6,
            // A release binary carries the Swift runtime and Foundation inside it: it runs without
            // the toolchain's libraries (an installed `hostshell` no longer reaches into
            // /opt/swift), and every start (each `ctl` call too) skips loading and binding a dozen
            // Swift libraries, about 15 ms here. Debug builds and tests link them as before.
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),

        .testTarget(
            name: "BridgeRuntimeTests",
            dependencies: ["HostCore", "StudioContract", "Push", "CapacitorContract", "HomeSec"],
            swiftSettings: swift6
        ),
        .testTarget(
            name: "HostShellTests",
            dependencies: ["HostCore", "StudioContract", "Push", "CapacitorContract", "HomeSec",
                           "ShellKit", "StudioShell", "PushShell", "CapacitorShell", "HomeSecShell", "DevFixtures", "HostShell", "CGtk", "CHTTP2"],
            swiftSettings: swift6
        ),
    ]
)
