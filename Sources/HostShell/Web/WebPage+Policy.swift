import BridgeRuntime
import CGtk

/// What a page may do beyond its own document, whatever app it belongs to: its server's origin
/// (the main frame stays there), whether addresses may be handed to the desktop (not in a
/// kiosk), and the profile its permission answers are kept in (nil: none kept, e.g. `probe`).
@MainActor
struct PageTrust {
    let origin: Origin
    let handsOut: Bool
    let profileId: String?
    let handoff: DesktopHandoff
    /// Whether a person can answer its permission questions (not in a kiosk, nor on a display
    /// the app started itself).
    let attended: Bool
    /// The server's name as the person knows it, for prompts.
    let name: String

    init(origin: Origin, handsOut: Bool, profileId: String?, handoff: DesktopHandoff = .shared, attended: Bool = true, name: String? = nil) {
        self.origin = origin; self.handsOut = handsOut; self.profileId = profileId; self.handoff = handoff
        self.attended = attended; self.name = name ?? origin.host
    }
}

/// The navigation policy's glue: WebKit's `decide-policy` reported as facts to the page's
/// `NavigationGuard` (BridgeRuntime decides), and its verdict applied — WebKit goes on, or the
/// navigation is stopped and the handoff records it (and opens it outside when so decided).
extension WebPage {
    func connectNavigationPolicy() {
        cgtk_connect_decide_policy(view, { _, decision, type, data in
            let page = Unmanaged<WebPage>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { page.decide(decision!, type) } ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// True when the decision was made here (stopped); false lets WebKit go on as it would.
    private func decide(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, _ type: WebKitPolicyDecisionType) -> Bool {
        guard let request = Self.facts(OpaquePointer(decision), type) else { return false }
        let verdict = navigation.decide(request)
        guard verdict.action != .load else { return false }
        webkit_policy_decision_ignore(decision)
        trust.handoff.carryOut(request.url, verdict)
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
            let canShow = webkit_response_policy_decision_is_mime_type_supported(decision) != 0
            return NavigationPolicy.Request(stage: .response(mainFrame: main, canShow: canShow), url: String(cString: raw))
        default:
            return nil
        }
    }
}
