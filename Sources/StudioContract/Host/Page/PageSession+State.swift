import HostCore

/// A page session's state as the glue, state dumps and tests read it: each value is its
/// capability's (`navigation`, `presentations`, `alerts`, `menus`, `system`, `mediaIntake`,
/// `deepLinks`), named as it was when one reducer held them all.
extension PageSession {
    /// The window's size class now: tabs or a sidebar (starts as the device's).
    public var sizeClass: SizeClass { navigation.sizeClass }
    public var catalog: NavigationCatalog? { navigation.catalog }
    /// Studio's own answer to "where am I": authoritative for the selection.
    public var activeDestinationId: String? { navigation.activeDestinationId }
    /// The destination the user chose natively, shown until the next `navigation/state`.
    public var pendingDestinationId: String? { navigation.pendingDestinationId }
    public var chrome: NavigationChrome? { navigation.chrome }

    /// Main: a sheet page is prewarmed and ready to show a presentation.
    public var presentationReadyToShow: Bool { presentations.readyToShow }
    /// Main: the presentation open now, if any. Sheet: the presentation it shows now, if any.
    public var presentationId: String? { presentations.presentationId }

    /// The alert showing for this page, if any: only one at a time, only a button press ends it.
    public var alert: AlertRequest? { alerts.alert }
    /// Another page of the app shows an alert (see `PageEvent.alertElsewhere`).
    public var alertShownElsewhere: Bool { alerts.shownElsewhere }

    /// The menu the next context click opens (the newest arm wins).
    public var armedMenu: ActionMenu? { menus.armedMenu }
    /// The menus with a trigger control, by menu id.
    public var triggers: [String: ActionMenuTrigger] { menus.triggers }
    /// The menu the person has open, if any (one at a time).
    public var openMenu: ActionMenu? { menus.openMenu }
    /// The menu on screen and where it came from (armed or a trigger).
    public var shownMenu: ShownMenu? { menus.shown }
    /// The menu `menuId` as it is now: armed, or with a trigger.
    public func currentMenu(_ menuId: String) -> ActionMenu? { menus.currentMenu(menuId) }

    /// A share panel is open: another share gets `unavailable`.
    public var shareOpen: Bool { system.shareOpen }
    /// The QR scan in progress, by request id: one at a time.
    public var qrScanRequestId: String? { system.qrScanRequestId }

    /// The app holds a credential for this server: `system/media-intake-status` says available.
    public var hasCredential: Bool { mediaIntake.hasCredential }
    /// The media intake in progress (one at a time), by request id.
    public var mediaIntakeRequestId: String? { mediaIntake.requestId }

    /// The deep link waiting for Studio (the newest wins), its attempts and whether it is in flight.
    public var deepLink: QueuedDeepLink? { deepLinks.link }
    /// The timers running (only the deep link's today).
    public var timers: TimerSet<PageTimer> { deepLinks.timers }
}

extension PageSession {
    /// Main: the system map shown now, as Studio last sent it (one at a time).
    public var shownMap: MapPresent? { map.current }
}
