/// The iPhones and iPads `--device` can name, with what a page sees on each.
///
/// Sources: point sizes and scale factors from Apple's Human Interface Guidelines, "Layout",
/// device screen sizes table (developer.apple.com/design/human-interface-guidelines/layout);
/// safe-area insets, status-bar and home-indicator heights as measured on Xcode's simulators
/// (iOS 18: `view.safeAreaInsets` of a full-screen view and the status bar manager's frame).
/// On Dynamic Island iPhones the status-bar area is the top inset (59 or 62 points); the SE has a
/// 20-point status bar, a home button and so no home indicator, and in landscape every iPhone
/// hides its status bar. iPads keep a 24-point status bar and a 20-point home indicator both ways.
public enum DeviceCatalogue {
    private static func iPhone(_ id: String, _ name: String, _ width: Int, _ height: Int, top: Int) -> DeviceModel {
        DeviceModel(id: id, name: name, profile: .phone, portraitSize: PointSize(width, height), scale: 3,
                    portrait: OrientationMetrics(safeArea: EdgeInsets(top: top, bottom: 34), statusBar: top, homeIndicator: 34),
                    landscape: OrientationMetrics(safeArea: EdgeInsets(left: top, bottom: 21, right: top), statusBar: 0, homeIndicator: 21))
    }

    private static func iPad(_ id: String, _ name: String, _ width: Int, _ height: Int) -> DeviceModel {
        let both = OrientationMetrics(safeArea: EdgeInsets(top: 24, bottom: 20), statusBar: 24, homeIndicator: 20)
        return DeviceModel(id: id, name: name, profile: .tablet, portraitSize: PointSize(width, height), scale: 2,
                           portrait: both, landscape: both)
    }

    /// Every device, phones then tablets, smallest first.
    public static let all: [DeviceModel] = [
        DeviceModel(id: "iphone-se", name: "iPhone SE (3rd generation)", profile: .phone, portraitSize: PointSize(375, 667), scale: 2,
                    portrait: OrientationMetrics(safeArea: EdgeInsets(top: 20), statusBar: 20, homeIndicator: 0),
                    landscape: OrientationMetrics(safeArea: EdgeInsets(), statusBar: 0, homeIndicator: 0), homeButton: true),
        iPhone("iphone-16", "iPhone 16", 393, 852, top: 59),
        iPhone("iphone-16-pro", "iPhone 16 Pro", 402, 874, top: 62),
        iPhone("iphone-16-pro-max", "iPhone 16 Pro Max", 440, 956, top: 62),
        iPad("ipad-mini", "iPad mini (A17 Pro)", 744, 1133),
        iPad("ipad-air", "iPad Air 11-inch (M2)", 820, 1180),
        iPad("ipad-pro-13", "iPad Pro 13-inch (M4)", 1032, 1376),
    ]

    /// The short names that stay: `phone` and `tablet` name a current iPhone and iPad;
    /// `desktop` names no device (a desktop window, no device chrome).
    public static let aliases: [String: String] = ["phone": "iphone-16", "tablet": "ipad-air"]

    /// Every name `--device` takes, for messages and `--help`.
    public static var names: [String] { all.map(\.id) + ["phone", "tablet", "desktop"] }

    /// The device `word` names: an id or Apple's name, any case, spaces or dashes alike, with or
    /// without the part in parentheses ("iPhone 16 Pro", "iphone-se", "iPad mini"); nil for an
    /// alias (see `DeviceChoice.parse`) or an unknown name.
    public static func model(named word: String) -> DeviceModel? {
        let key = normalized(word)
        guard !key.isEmpty else { return nil }
        if let id = aliases[key] { return all.first { $0.id == id } }
        return all.first { $0.id == key || normalized($0.name) == key || normalized(shortName($0.name)) == key }
    }

    /// Lower case, runs of spaces, dashes and underscores made one dash.
    static func normalized(_ word: String) -> String {
        var out = ""
        for character in word.lowercased() {
            if character == " " || character == "-" || character == "_" {
                if !out.isEmpty && !out.hasSuffix("-") { out.append("-") }
            } else if character != "(" && character != ")" {
                out.append(character)
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out
    }

    /// The name without its part in parentheses: "iPad mini (A17 Pro)" → "iPad mini".
    static func shortName(_ name: String) -> String {
        guard let open = name.firstIndex(of: "(") else { return name }
        return String(name[..<open])
    }
}
