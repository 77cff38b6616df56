import CGtk
import HostCore

/// What a page may do beyond its own document, whatever app it belongs to: its server's origin
/// (the main frame stays there), whether addresses may be handed to the desktop (not in a
/// kiosk), and the profile its permission answers are kept in (nil: none kept, e.g. `probe`).
@MainActor
package struct PageTrust {
    package let origin: Origin
    let handsOut: Bool
    /// The profile's data directory, where remembered permission answers are kept (nil: none kept).
    let profileData: String?
    package let handoff: DesktopHandoff
    /// Whether a person can answer its permission questions (not in a kiosk, nor on a display
    /// the app started itself).
    package let attended: Bool
    /// The server's name as the person knows it, for prompts.
    let name: String

    package init(origin: Origin, handsOut: Bool, profileData: String?, handoff: DesktopHandoff, attended: Bool = true, name: String? = nil) {
        self.origin = origin; self.handsOut = handsOut; self.profileData = profileData; self.handoff = handoff
        self.attended = attended; self.name = name ?? origin.host
    }
}

/// The navigation policy's glue: WebKit's `decide-policy` reported as facts to the page's
/// `NavigationGuard` (BridgeRuntime decides), and its verdict applied — WebKit goes on, or the
/// navigation is stopped and the handoff records it (and opens it outside when so decided).
extension WebPage {
    func connectNavigationPolicy() -> [SignalConnection] {
        [onDecidePolicy(view) { [weak self] decision, type in self?.decide(decision, type) ?? false },
         // `window.open` asks for a view of its own, without a policy decision: the same policy
         // decides, and WebKit never gets a view (an app window, the browser, or nothing).
         onCreate(view) { [weak self] action in self?.popUp(action) },
         watchActivations()]
    }

    /// A person's press, key or touch in the view is a new activation (one pop-up more). Seen
    /// in the capture phase, before WebKit hands the event to the page, so it always comes
    /// before the `window.open` it leads to; never stopped here.
    private func watchActivations() -> SignalConnection {
        let input = gtk_event_controller_legacy_new()!
        gtk_event_controller_set_propagation_phase(input, GTK_PHASE_CAPTURE)
        gtk_widget_add_controller(cgtk_widget(UnsafeMutableRawPointer(view)), input)
        return onInputEvent(input) { [weak self] type in
            if type == GDK_BUTTON_PRESS || type == GDK_KEY_PRESS || type == GDK_TOUCH_BEGIN { self?.navigation.personActed() }
        }
    }

    private func popUp(_ action: OpaquePointer) {
        guard !lettingGo else { return }
        guard let request = webkit_navigation_action_get_request(action), let raw = webkit_uri_request_get_uri(request) else { return }
        let facts = NavigationPolicy.Request(stage: .newWindow, url: String(cString: raw),
                                             userGesture: webkit_navigation_action_is_user_gesture(action) != 0,
                                             isRedirect: webkit_navigation_action_is_redirect(action) != 0, trigger: .other)
        let verdict = navigation.decide(facts, now: monotonicSeconds())
        if verdict.action == .openWindow, let onOpenWindow { return onOpenWindow(facts.url) }
        trust.handoff.carryOut(facts.url, verdict.action == .openWindow ? NavigationPolicy.Verdict(.openExternally, verdict.reason) : verdict)
    }

    /// True when the decision was made here (stopped); false lets WebKit go on as it would.
    private func decide(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, _ type: WebKitPolicyDecisionType) -> Bool {
        if lettingGo {  // a page let go of goes nowhere and hands nothing out
            webkit_policy_decision_ignore(decision)
            return true
        }
        guard let request = Self.facts(OpaquePointer(decision), type) else { return false }
        if request.isRedirect, request.stage == .action { lastRedirect = request.url }
        if !request.isRedirect, request.stage == .action { navigationsAsked += 1 }
        let verdict = navigation.decide(request, now: monotonicSeconds())
        if verdict.action == .load {
            // A download a person asked for: the engine saves it (`DownloadCenter` places it).
            guard case .response(true, false) = request.stage else { return false }
            webkit_policy_decision_download(decision)
            return true
        }
        webkit_policy_decision_ignore(decision)
        if verdict.action == .openWindow, let onOpenWindow {
            onOpenWindow(request.url)
            return true
        }
        trust.handoff.carryOut(request.url, verdict.action == .openWindow ? NavigationPolicy.Verdict(.openExternally, verdict.reason) : verdict)
        return true
    }

    /// What WebKit says about the navigation or response, nothing decided.
    private static func facts(_ decision: OpaquePointer, _ type: WebKitPolicyDecisionType) -> NavigationPolicy.Request? {
        switch type {
        case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION:
            guard let action = webkit_navigation_policy_decision_get_navigation_action(decision),
                  let request = webkit_navigation_action_get_request(action), let raw = webkit_uri_request_get_uri(request) else { return nil }
            let trigger: NavigationPolicy.Trigger = switch webkit_navigation_action_get_navigation_type(action) {
            case WEBKIT_NAVIGATION_TYPE_LINK_CLICKED: .linkClicked
            case WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED: .formSubmitted
            case WEBKIT_NAVIGATION_TYPE_BACK_FORWARD: .backForward
            case WEBKIT_NAVIGATION_TYPE_RELOAD: .reload
            case WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED: .formResubmitted
            default: .other
            }
            return NavigationPolicy.Request(stage: type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION ? .newWindow : .action,
                                            url: String(cString: raw), userGesture: webkit_navigation_action_is_user_gesture(action) != 0,
                                            isRedirect: webkit_navigation_action_is_redirect(action) != 0, trigger: trigger)
        case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
            guard let request = webkit_response_policy_decision_get_request(decision), let raw = webkit_uri_request_get_uri(request) else { return nil }
            let main = webkit_response_policy_decision_is_main_frame_main_resource(decision) != 0
            // An attachment is a download whatever its type; anything the view cannot show too.
            let headers = webkit_response_policy_decision_get_response(decision).flatMap { webkit_uri_response_get_http_headers($0) }
            let disposition = headers.flatMap { soup_message_headers_get_one($0, "Content-Disposition") }.map { String(cString: $0) }
            let canShow = webkit_response_policy_decision_is_mime_type_supported(decision) != 0 && !DownloadRules.isAttachment(disposition)
            return NavigationPolicy.Request(stage: .response(mainFrame: main, canShow: canShow), url: String(cString: raw))
        default:
            return nil
        }
    }
}
