/// The device a window imitates: it decides the navigation layout, the window size and the
/// user agent, the way the phone or tablet app would present the same Studio.
public enum DeviceProfile: String, Sendable, CaseIterable {
    case phone, tablet, desktop

    /// Phones show tabs; wider devices show a grouped sidebar.
    public var usesTabs: Bool { self == .phone }

    /// The default window size in logical pixels.
    public var windowSize: (width: Int, height: Int) {
        switch self {
        case .phone: return (390, 844)
        case .tablet: return (1024, 768)
        case .desktop: return (1280, 800)
        }
    }

    /// How many primary destinations become tabs on a phone; the rest go under More.
    public static let maxTabs = 4
}
