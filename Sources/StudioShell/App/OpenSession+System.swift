import CGtk
import HostCore
import StudioContract

/// Haptics and share: feedback made visible in the chrome and recorded; the share panel for
/// content that passed the refusal rules, and what was chosen in it.
extension OpenSession {
    /// Makes haptic feedback visible in the chrome, and records it.
    func showHaptic(_ feedback: HapticFeedback) {
        view.pulse(feedback)
        haptics = StateReport.appending(feedback.rawValue, to: haptics, keeping: StateReport.keptHaptics)
        onScreenChanged?()
    }

    /// Opens the share panel for `page`'s request (it passed the refusal rules).
    func showShare(_ request: ShareRequest, for page: StudioPage) {
        sharePanel = SharePanel(request, parent: page.window, handoff: environment.handoff) { [weak self, weak page] choice in
            guard let self else { return }
            self.sharePanel = nil
            self.lastShare = ["choice": .string(choice), "title": request.title.map(JSONValue.string) ?? .null,
                              "text": request.text.map(JSONValue.string) ?? .null, "url": request.url.map(JSONValue.string) ?? .null]
            page?.shareClosed()
            self.onScreenChanged?()
        }
        onScreenChanged?()
    }

    /// The share just shown breaks the phone's rules once read as a server would read it: it is
    /// shared all the same (as on the phone), and the developer is told — standard error, the
    /// event stream and the bridge log, and `ctl state`'s `share.warnings`.
    func warnShare(_ warnings: [ShareWarning], for page: StudioPage) {
        for warning in warnings {
            shareWarnings = StateReport.appending(warning.json, to: shareWarnings, keeping: StateReport.keptNotices)
            printError("hostshell: warning: \(TerminalText.escaped(warning.json.objectValue?["message"]?.stringValue ?? warning.message))")
            environment.warn(["source": "share", "warning": warning.json], bridgeContext: page.session.context.rawValue)
        }
        onScreenChanged?()
    }

    /// For state dumps: the last feedback kinds, the share panel open and the last choice.
    var systemJSON: JSONValue {
        ["haptics": .array(haptics.map(JSONValue.string)),
         "share": ["open": sharePanel.map { panel in
             ["title": panel.request.title.map(JSONValue.string) ?? .null, "url": panel.request.url.map(JSONValue.string) ?? .null,
              "choices": .array(panel.choices.map(JSONValue.string))] } ?? .null,
                   "last": lastShare ?? .null, "warnings": .array(shareWarnings)]]
    }
}
