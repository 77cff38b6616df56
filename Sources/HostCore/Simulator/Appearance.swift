/// The simulator's `ui appearance`: light, dark, or (HostShell only) the desktop's own.
public enum Appearance: String, Sendable, Equatable, CaseIterable {
    case light, dark
    /// Follow the desktop's preference (libadwaita's default): what HostShell does unless told.
    case auto
}

/// The simulator's `ui content_size` categories, each with the body text size iOS gives it.
///
/// Source: Apple's Human Interface Guidelines, "Typography" → "Dynamic Type sizes", the Body
/// style at each size (xSmall 14 pt … xxxLarge 23 pt; AX1 28 … AX5 53 pt), Large (17 pt) being
/// the default. `simctl ui booted content_size` takes the same names.
public enum ContentSizeCategory: String, Sendable, Equatable, CaseIterable {
    case extraSmall = "extra-small"
    case small
    case medium
    case large
    case extraLarge = "extra-large"
    case extraExtraLarge = "extra-extra-large"
    case extraExtraExtraLarge = "extra-extra-extra-large"
    case accessibilityMedium = "accessibility-medium"
    case accessibilityLarge = "accessibility-large"
    case accessibilityExtraLarge = "accessibility-extra-large"
    case accessibilityExtraExtraLarge = "accessibility-extra-extra-large"
    case accessibilityExtraExtraExtraLarge = "accessibility-extra-extra-extra-large"

    /// The default category on an iPhone.
    public static let standard = ContentSizeCategory.large

    /// The Body text style's size in points at this category.
    public var bodyPoints: Int {
        switch self {
        case .extraSmall: 14
        case .small: 15
        case .medium: 16
        case .large: 17
        case .extraLarge: 19
        case .extraExtraLarge: 21
        case .extraExtraExtraLarge: 23
        case .accessibilityMedium: 28
        case .accessibilityLarge: 33
        case .accessibilityExtraLarge: 40
        case .accessibilityExtraExtraLarge: 47
        case .accessibilityExtraExtraExtraLarge: 53
        }
    }

    /// WebKit's text zoom for this category: the body size over the default's (17 pt).
    ///
    /// On the phone only text set in a Dynamic Type style (`font: -apple-system-body` and the
    /// other `-apple-system-*` styles) follows the category; text sized in px does not.
    /// WebKitGTK has no such styles (`-apple-system-body` is Cocoa-only), so nothing on a page
    /// here can tell a Dynamic Type size from any other: the one control that reaches the page
    /// is WebKit's text zoom, which scales every text size by this ratio (layout sizes stay).
    /// It is the closest measure available — body text is exactly the phone's size — and the
    /// difference (px text scales here, not on the phone) is a fidelity entry.
    public var textZoom: Double { Double(bodyPoints) / Double(Self.standard.bodyPoints) }

    /// The category a `ctl text-size` word names: the simctl name, or UIKit's short one
    /// (`XS`, `S`, `M`, `L`, `XL`, `XXL`, `XXXL`, `AX1`…`AX5`), any case.
    public init?(word: String) {
        let lower = word.lowercased()
        if let named = ContentSizeCategory(rawValue: lower) { self = named; return }
        let short = ["xs", "s", "m", "l", "xl", "xxl", "xxxl", "ax1", "ax2", "ax3", "ax4", "ax5"]
        guard let index = short.firstIndex(of: lower) else { return nil }
        self = Self.allCases[index]
    }
}

/// What a page observes of the simulator's display settings here, against the phone, for
/// `ctl state`'s `fidelity` (a difference is said, never hidden).
public enum DisplayFidelity {
    public static let textSize: JSONValue = [
        "phone": "only text in a Dynamic Type style (font: -apple-system-body …) follows the text size",
        "here": "WebKit's text zoom scales all text by the category's body size over 17 pt (accessibility-extra-extra-extra-large: 53/17 ≈ 3.12); px-sized text scales too",
        "why": "WebKitGTK has no Dynamic Type text styles (-apple-system-body is Cocoa-only)",
    ]

    /// `increase contrast`: what a page's `prefers-contrast: more` sees.
    public static func contrast(pageFollows: Bool) -> JSONValue {
        pageFollows ? .null : [
            "phone": "prefers-contrast: more matches with Increase Contrast on",
            "here": "prefers-contrast: more never matches; only the native chrome switches to high contrast",
            "why": "measured on WebKitGTK 2.50: with libadwaita's high-contrast style on, matchMedia('(prefers-contrast: more)') stays false, and WebKit has no setting for it",
        ]
    }
}
