import CGtk
import Glibc
import HostCore

/// The one way anything of the app hands an address to the desktop (the browser, mail): the
/// navigation policy's verdicts for every page, and the share panel's Open and E-mail. Each
/// verdict that stops a navigation is recorded (`ctl state` `external`: what was handed out and
/// what was refused, and why), then carried out with GIO's default handler for the address.
/// `HOSTSHELL_HANDOFF=record` (the test suites set it) records without launching anything: the
/// decision and the record are the same, only the desktop is not asked.
@MainActor
package final class DesktopHandoff {
    package private(set) var record = ExternalRecord()
    /// False under `HOSTSHELL_HANDOFF=record`.
    let launches: Bool

    init() {
        launches = getenv("HOSTSHELL_HANDOFF").map { String(cString: $0) } != "record"
    }

    /// Records a verdict that stopped a navigation and hands the address out when it says so.
    func carryOut(_ url: String, _ verdict: NavigationPolicy.Verdict) {
        record.note(url, verdict)
        if verdict.action == .openExternally && launches { g_app_info_launch_default_for_uri(url, nil, nil) }
    }

    /// A person's choice in the app's own UI (the share panel's Open or E-mail).
    package func open(_ url: String, reason: String) { carryOut(url, NavigationPolicy.Verdict(.openExternally, reason)) }
}
