import HostCore

/// The native navigation the host draws, derived only from Studio's catalog (§4 Navigation).
public enum NavigationLayout: Sendable, Equatable {
    /// No native navigation: not negotiated, no catalog, or the catalog was withdrawn. Studio
    /// shows its own sidebar.
    case none
    /// Compact (a phone, a narrow window): up to four primary destinations as tabs, everything else under More (empty when
    /// nothing is left over, and then no More tab is shown).
    case tabs(tabs: [Destination], more: [Destination])
    /// Regular (tablet, desktop, a wide window): the catalog's groups, with their titles, in order.
    case sidebar([DestinationGroup])

    /// The layout for a window of `sizeClass`: tabs when compact, a sidebar when regular.
    public static func make(catalog: NavigationCatalog?, sizeClass: SizeClass) -> NavigationLayout {
        guard let catalog, !catalog.isEmpty else { return .none }
        guard sizeClass.usesTabs else { return .sidebar(catalog.groups) }
        let all = catalog.destinations
        let tabs = Array(all.filter { $0.placement == .primary }.prefix(DeviceProfile.maxTabs))
        let tabIds = Set(tabs.map(\.id))
        return .tabs(tabs: tabs, more: all.filter { !tabIds.contains($0.id) })
    }

    /// The layout for the device's starting window.
    public static func make(catalog: NavigationCatalog?, profile: DeviceProfile) -> NavigationLayout {
        make(catalog: catalog, sizeClass: profile.sizeClass)
    }
}

/// The native back bar shown for a drill-in page.
public struct BackBar: Sendable, Equatable {
    public var title: String?
    public var backLabel: String

    public init(title: String?, backLabel: String) {
        self.title = title
        self.backLabel = backLabel
    }
}

/// Everything the native chrome shows for one page, for the UI and for state dumps.
public struct NativeChrome: Sendable, Equatable {
    public var layout: NavigationLayout = .none
    /// The selection shown: the optimistic one while a request is pending, else Studio's.
    public var selectedDestinationId: String?
    public var backBar: BackBar?

    public init(layout: NavigationLayout = .none, selectedDestinationId: String? = nil, backBar: BackBar? = nil) {
        self.layout = layout
        self.selectedDestinationId = selectedDestinationId
        self.backBar = backBar
    }
}

/// Icon tokens Studio uses, mapped to freedesktop symbolic icon names; anything else gets the
/// generic icon, as the contract asks ("a host shows its generic icon for a token it does not
/// recognize").
public enum IconTokens {
    public static let generic = "application-x-addon-symbolic"

    static let symbolic: [String: String] = [
        "home": "go-home-symbolic", "overview": "go-home-symbolic", "screens": "video-display-symbolic",
        "groups": "view-grid-symbolic", "media": "image-x-generic-symbolic", "widgets": "view-app-grid-symbolic",
        "layouts": "view-dual-symbolic", "playlists": "view-list-symbolic", "schedules": "x-office-calendar-symbolic",
        "activity": "document-open-recent-symbolic", "settings": "emblem-system-symbolic", "plugin": "application-x-addon-symbolic",
        "users": "system-users-symbolic", "account": "avatar-default-symbolic", "search": "system-search-symbolic",
        "refresh": "view-refresh-symbolic", "trash": "user-trash-symbolic", "open": "document-open-symbolic",
        "share": "emblem-shared-symbolic", "edit": "document-edit-symbolic", "add": "list-add-symbolic",
        "more": "view-more-symbolic", "help": "help-browser-symbolic", "alerts": "dialog-warning-symbolic",
        // Menu and sheet actions Studio names (a row's Live Preview, Remove, …).
        "preview": "view-reveal-symbolic", "view": "view-reveal-symbolic", "delete": "user-trash-symbolic",
        "remove": "user-trash-symbolic", "copy": "edit-copy-symbolic", "duplicate": "edit-copy-symbolic",
        "link": "insert-link-symbolic", "send": "mail-send-symbolic", "download": "folder-download-symbolic",
        "save": "document-save-symbolic", "close": "window-close-symbolic", "back": "go-previous-symbolic",
        "forward": "go-next-symbolic", "play": "media-playback-start-symbolic", "restart": "view-refresh-symbolic",
        "approvals": "object-select-symbolic", "approve": "object-select-symbolic", "check": "object-select-symbolic",
        "done": "object-select-symbolic", "info": "dialog-information-symbolic", "warning": "dialog-warning-symbolic",
        "error": "dialog-error-symbolic", "lock": "system-lock-screen-symbolic", "security": "security-high-symbolic",
        "notifications": "preferences-system-notifications-symbolic", "schedule": "x-office-calendar-symbolic",
        "calendar": "x-office-calendar-symbolic", "clock": "preferences-system-time-symbolic",
        "star": "starred-symbolic", "favorite": "starred-symbolic", "folder": "folder-symbolic",
        "file": "text-x-generic-symbolic", "image": "image-x-generic-symbolic", "video": "video-x-generic-symbolic",
        "audio": "audio-x-generic-symbolic", "camera": "camera-photo-symbolic", "map": "find-location-symbolic",
        "location": "mark-location-symbolic", "devices": "computer-symbolic", "display": "video-display-symbolic",
        "server": "network-server-symbolic", "network": "network-workgroup-symbolic", "filter": "edit-find-symbolic",
        "sort": "view-sort-ascending-symbolic", "properties": "document-properties-symbolic",
        "sign-out": "system-log-out-symbolic", "logout": "system-log-out-symbolic", "power": "system-shutdown-symbolic",
    ]

    /// Every theme icon a token can name, the fallback among them (each must be in the icon
    /// theme the UI uses: Adwaita, which `scripts/install-deps` installs).
    public static var allNames: Set<String> { Set(symbolic.values).union([generic]) }

    public static func symbolicName(for token: String) -> String { symbolic[token] ?? generic }
}

extension NativeChrome {
    /// What the chrome shows over `screen`: over an error screen nothing is selected and there
    /// is no back bar (the page they belonged to is not there), as a GNOME app's error page
    /// selects nothing; over the loading mark and the page, what the page said.
    public func shown(over screen: Screen) -> NativeChrome {
        guard case .error = screen else { return self }
        return NativeChrome(layout: layout, selectedDestinationId: nil, backBar: nil)
    }
}
