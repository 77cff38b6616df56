/// What `hostshell devices` prints: the catalogue as a table, or as JSON with each device's
/// figures and the fidelity a page can expect (on HostShell's own Xvfb; with a display of your
/// own, scale and screen follow that display).
public enum DeviceListing {
    public static let usage = """
        usage: hostshell devices [--json]

        The devices --device can name (open, capacitor, kiosk, replay): each iPhone and iPad with its
        screen in points, scale factor, status bar and home indicator, and safe-area insets held
        portrait and landscape. phone names an iPhone 16, tablet an iPad Air; desktop is a desktop
        window with no device chrome. --orientation portrait|landscape says how it is held at the
        start, ctl rotate turns it, ctl status-bar sets what the status bar shows.
          --json    print the catalogue as JSON, with a fidelity section per device and orientation:
                    what a page sees on the phone, what it sees here and why they differ
          --help    this help
        """

    /// The table, one device a line.
    public static func table() -> String {
        let header = ["NAME", "MODEL", "IDIOM", "POINTS", "SCALE", "STATUS BAR", "HOME", "SAFE AREA PORTRAIT", "SAFE AREA LANDSCAPE"]
        func insets(_ edge: EdgeInsets) -> String { "\(edge.top) \(edge.left) \(edge.bottom) \(edge.right)" }
        var rows = [header]
        for model in DeviceCatalogue.all {
            rows.append([model.id, model.name, model.idiom, "\(model.portraitSize.width)x\(model.portraitSize.height)", "@\(model.scale)x",
                         "\(model.portrait.statusBar)/\(model.landscape.statusBar)", "\(model.portrait.homeIndicator)/\(model.landscape.homeIndicator)",
                         insets(model.portrait.safeArea), insets(model.landscape.safeArea)])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.indices.map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }.joined(separator: "  ")
                .trimmingTrailingSpaces()
        }
        lines.append("")
        lines.append("Status bar and home indicator: portrait/landscape, in points. Safe area: top left bottom right.")
        lines.append("Aliases: " + DeviceCatalogue.aliases.sorted { $0.key > $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
                     + "; desktop = a desktop window, no device.")
        return lines.joined(separator: "\n")
    }

    /// The catalogue as JSON.
    public static func json() -> JSONValue {
        .array(DeviceCatalogue.all.map { model in
            var orientations = JSONObject()
            for orientation in DeviceOrientation.allCases {
                let metrics = model.metrics(orientation)
                let choice = DeviceChoice(model: model, orientation: orientation)
                orientations[orientation.rawValue] = [
                    "size": model.size(orientation).json, "pixels": model.pixelSize(orientation).json, "safeArea": metrics.safeArea.json,
                    "statusBar": .number(Double(metrics.statusBar)), "homeIndicator": .number(Double(metrics.homeIndicator)),
                    "pageSize": PointSize(choice.size.width, choice.pageHeight).json,
                    "fidelity": DeviceFidelity.report(DeviceFidelity.expected(choice, ownDisplay: true, startedIn: orientation), measured: nil),
                ]
            }
            let aliases = DeviceCatalogue.aliases.filter { $0.value == model.id }.keys.sorted().map(JSONValue.string)
            return ["name": .string(model.id), "model": .string(model.name), "idiom": .string(model.idiom), "scale": .number(Double(model.scale)),
                    "homeButton": .bool(model.homeButton), "aliases": .array(aliases), "userAgent": .string(model.userAgent),
                    "orientations": .object(orientations),
                    "fidelityNote": "\"here\" is what a page sees on HostShell's own Xvfb (run without DISPLAY); with a display of your own, devicePixelRatio and screen follow that display. \"measured at run time\": only a running page tells (ctl state's device.fidelity)."]
        })
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
