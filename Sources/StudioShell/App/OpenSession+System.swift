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

    /// For state dumps: the last feedback kinds, the share panel open and the last choice.
    var systemJSON: JSONValue {
        ["haptics": .array(haptics.map(JSONValue.string)),
         "share": ["open": sharePanel.map { panel in
             ["title": panel.request.title.map(JSONValue.string) ?? .null, "url": panel.request.url.map(JSONValue.string) ?? .null,
              "choices": .array(panel.choices.map(JSONValue.string))] } ?? .null,
                   "last": lastShare ?? .null]]
    }
}
