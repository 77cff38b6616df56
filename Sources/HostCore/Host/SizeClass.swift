/// How much room a window has across, as iOS's horizontal size class: `compact` (a phone, or an
/// iPad app in a narrow split) shows the catalog as tabs at the bottom and sheets rising from
/// the bottom; `regular` shows a grouped sidebar and sheets as a panel in the middle. HostShell
/// decides it from the window's width as it is now, not from the device it imitates.
public enum SizeClass: String, Sendable, CaseIterable {
    case compact, regular

    /// The least width, in logical pixels, that is `regular`: narrower is `compact`. Between an
    /// iPhone Pro Max's 430 and a portrait iPad mini's 744, at the width where GNOME's adaptive
    /// apps fold their sidebars.
    public static let regularMinWidth = 600

    /// The class of a window `width` pixels wide.
    public static func of(width: Int) -> SizeClass { width < regularMinWidth ? .compact : .regular }

    /// Compact shows tabs; regular shows a sidebar.
    public var usesTabs: Bool { self == .compact }

}

extension DeviceProfile {
    /// The class of the device's starting window size (phone compact, tablet and desktop regular).
    public var sizeClass: SizeClass { SizeClass.of(width: windowSize.width) }
}

/// Follows one window's width and says when its size class changes — the only thing a resize
/// changes in the layout. What a change keeps is everything else: the selected destination (or
/// the one a tap asked for), the back bar, the sheet shown and its page, the open menu, the
/// alert; the chrome is drawn again for the new class (tabs ↔ sidebar) and the sheet shown is
/// placed again in its new style.
public struct AdaptiveLayout: Machine, Sendable, Equatable {
    public enum Effect: Sendable, Equatable {
        /// Draw the chrome and place the sheet for this class.
        case relayout(SizeClass)
    }

    public private(set) var sizeClass: SizeClass
    /// The last width reported (nil before the first).
    public private(set) var width: Int?

    /// Starts in the device's class, until the window reports its width.
    public init(starting device: DeviceProfile) { sizeClass = device.sizeClass }

    /// The window is `width` pixels wide now. A width that is not positive (not laid out yet)
    /// changes nothing.
    public mutating func reduce(width: Int) -> [Effect] { reduce(width) }

    /// The machine's one event: the window's width, in pixels.
    public mutating func reduce(_ width: Int) -> [Effect] {
        guard width > 0 else { return [] }
        self.width = width
        let next = SizeClass.of(width: width)
        guard next != sizeClass else { return [] }
        sizeClass = next
        return [.relayout(next)]
    }
}
