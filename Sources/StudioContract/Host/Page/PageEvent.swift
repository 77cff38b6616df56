import HostCore

/// Something that happened to one page (a web view with the bridge).
public enum PageEvent: Sendable, Equatable {
    /// A new main-frame document committed, or the shown one ended with its web process: every
    /// document negotiates again (§2), and what the old one left open is gone.
    case documentCommitted
    /// A main-frame navigation of this page started (before its commit, which may never come):
    /// its alert, QR scan and menus are withdrawn now (§6 "Withdrawal").
    case navigationStarted
    /// A message from the page that passed decoding.
    case received(InboundMessage)
    /// A message from the page that failed decoding; its reply is `failure.reply`.
    case rejected(BridgeFailure)
    /// The user chose a destination in the native tabs or sidebar.
    case tapDestination(String)
    /// The user pressed the native back button.
    case tapBack
    /// The page's receiver answered a host message: `accepted` is its `true`.
    case delivered(HostMessage, accepted: Bool)
    /// The app is signing out: ask Studio to sign out too (when it speaks the auth lifecycle).
    case requestSignOut
    /// Whether the app now holds a credential for this server (native uploads need one).
    case credentialAvailable(Bool)
    /// Main page: whether a prewarmed sheet page is ready to show a presentation.
    case presentationAvailable(Bool)
    /// Whether another page of the app shows an alert: one alert at a time across main and its
    /// sheet, so this page's `alert/present` is `unavailable` meanwhile.
    case alertElsewhere(Bool)
    /// Main page: the sheet `presentationId` ended (any dismissal): Studio refetches.
    case presentationEnded(presentationId: String)
    /// Sheet page: show `presentationId` at `path`; dismiss it; a header action was pressed.
    case showPresentation(presentationId: String, path: String)
    case dismissPresentation(presentationId: String)
    case presentationAction(presentationId: String, actionId: String)
    /// The person opened the menu `menuId` from `source`: a trigger's button, or the armed menu
    /// by a context click or long press.
    case menuOpenRequested(menuId: String, source: MenuSource)
    /// The menu `menuId` could not be put on screen (GTK took it down at once: another
    /// application holds the pointer and keyboard). Nobody saw it, so Studio hears nothing.
    case menuNotShown(menuId: String)
    /// The person chose `actionId` in the open menu `menuId`, or closed it without a choice.
    case menuChosen(menuId: String, actionId: String)
    case menuDismissed(menuId: String)
    /// Another surface — an alert, a share panel, a QR scan, a sheet — came up, on this page or
    /// the other one of the session: an open menu closes (reported dismissed), as it does when
    /// the person clicks outside it.
    case surfaceShown
    /// Another page of the window armed a menu: there is one armed menu per window (§6).
    case armedElsewhere
    /// The menu ids whose triggers the window's other pages own: each menu id has one owner.
    case triggersElsewhere(Set<String>)
    /// A deep link's Studio path: queued until Studio can take it (the newest wins).
    case deepLink(path: String)
    /// A timer the session started fired (see `PageTimer`).
    case timerFired(PageTimer)
    /// Forget the queued deep link (sign-out, the server was removed).
    case dropDeepLink
    /// The share panel closed (whatever was chosen): another share may open.
    case shareClosed
    /// The QR scan `requestId` ended: a value, or nil when cancelled.
    case qrScanFinished(requestId: String, value: String?)
    /// The person pressed a button of the alert `alertId` (the host reports only ids it gave).
    case alertAnswered(alertId: String, actionId: String)
    /// The native media intake `requestId` finished (uploads done, failed or cancelled).
    case mediaIntakeFinished(requestId: String, outcome: MediaIntakeOutcome, uploadedCount: Int)
    /// The window's size class changed (see `AdaptiveLayout`): the chrome is drawn for it; the
    /// selection, the back bar and everything open are kept.
    case sizeClassChanged(SizeClass)
    /// Main page: the person chose the action `actionId` of a point of the map `mapId`, or
    /// closed the map (Done, Escape).
    case mapChosen(mapId: String, actionId: String)
    case mapClosed(mapId: String)
}

/// What the glue must do in answer to an event.
public enum PageEffect: Sendable, Equatable {
    /// Resolve the page's pending `postMessage` Promise.
    case reply(Reply)
    /// Call the page's `tilecastNativeReceiver` with the message.
    case send(HostMessage)
    /// Redraw the native chrome.
    case chromeChanged(NativeChrome)
    /// Studio reported that it signed out (`auth/signed-out`).
    case studioSignedOut
    /// Choose media natively and upload it with the app's credential.
    case startMediaIntake(MediaIntakeRequest)
    /// Make this feedback visible (there is no vibration motor).
    case haptic(HapticFeedback)
    /// Show the share panel for this content (it passed the refusal rules).
    case showShare(ShareRequest)
    /// The share just shown passed the phone's refusal rules but, read as a server or a person
    /// may read it, breaks them (`ShareLint`): tell the developer (it is shared all the same).
    case shareWarned([ShareWarning])
    /// Main page: open a native sheet for this presentation (the reply already said yes).
    case openPresentation(PresentationOpen)
    /// Sheet page: its prewarm finished (`presentation/ready`).
    case presentationReady
    /// Sheet page: the shown presentation's header, size or dismissibility changed.
    case presentationUpdated(PresentationUpdate)
    /// Sheet page: close the shown sheet; or close it and send main to `path`.
    case closePresentation(presentationId: String)
    case navigateFromPresentation(presentationId: String, path: String)
    /// The armed menu or the triggers changed: redraw the trigger overlays.
    case menusChanged
    /// Show this menu (at the trigger or pointer that asked), closing any other; take the open
    /// menu away (chosen, dismissed, or withdrawn by Studio) without a report.
    case showMenu(ActionMenu)
    case hideMenu
    /// Start or stop one of the session's timers (see `PageTimer`); a fire comes back as `.timerFired`.
    case timer(TimerCommand<PageTimer>)
    /// Start a QR scan for `requestId`.
    case startQRScan(requestId: String)
    /// Take the QR scan away without a result (its document is gone).
    case withdrawQRScan(requestId: String)
    /// Show this alert (one at a time; it belongs to this page).
    case showAlert(AlertRequest)
    /// Take the alert `alertId` away without a report (cancelled, or its document is gone).
    case withdrawAlert(alertId: String)
    /// Main page: show this map, or replace in place the points of the one shown with its id.
    case showMap(MapPresent)
    /// Main page: take the map `mapId` away (what Studio is told, if anything, is sent apart).
    case hideMap(mapId: String)
}

/// The timers of a page session, one per purpose.
public enum PageTimer: Hashable, Sendable {
    /// The queued deep link is due to be tried (now that Studio can take it, or after a refusal).
    case deepLinkDue
    /// The queued deep link's validity (300 s) ran out.
    case deepLinkExpiry
}

extension PageEffect {
    /// Whether this effect brings a surface up over the page — an alert, a share panel, a QR
    /// scan, a sheet. The page's open menu closes before it, as a click outside it would.
    var raisesSurface: Bool {
        switch self {
        case .showAlert, .showShare, .startQRScan, .openPresentation, .showMap: return true
        default: return false
        }
    }
}
