// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "HostShell",
    products: [
        .executable(name: "hostshell", targets: ["HostShell"]),
        .library(name: "BridgeRuntime", targets: ["BridgeRuntime"]),
    ],
    targets: [
        // Only what Swift cannot call itself (macros, varargs, GObject casts), as static inline
        // helpers; headers and link flags come from pkg-config.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "webkitgtk-6.0 libadwaita-1 libsecret-1 zbar libnghttp2 openssl",
            providers: [.apt(["libwebkitgtk-6.0-dev", "libgtk-4-dev", "libadwaita-1-dev", "libsecret-1-dev", "libzbar-dev", "libnghttp2-dev", "libssl-dev"])]
        ),
        // Pure Swift: the Studio bridge contract, policies and host state machines. No GLib/GTK/WebKit.
        .target(
            name: "BridgeRuntime",
            swiftSettings: [.swiftLanguageMode(.v6)],
            linkerSettings: [.linkedLibrary("m")]  // Double.rounded() lowers to libm
        ),
        // GTK/WebKit glue and the command line.
        .executableTarget(
            name: "HostShell",
            dependencies: ["BridgeRuntime", "CGtk"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "BridgeRuntimeTests",
            dependencies: ["BridgeRuntime"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "HostShellTests",
            dependencies: ["BridgeRuntime", "HostShell"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
