import BridgeRuntime
import CGtk

/// Haptics and share: feedback made visible in the chrome and recorded; the share panel for
/// content that passed the refusal rules, and what was chosen in it.
extension OpenSession {
    func connectSystem(_ page: StudioPage) {
        page.onHaptic = { [weak self] feedback in
            guard let self else { return }
            self.view.pulse(feedback)
            self.haptics.append(feedback.rawValue)
            if self.haptics.count > 20 { self.haptics.removeFirst() }
            self.onScreenChanged?()
        }
        page.onShare = { [weak self, weak page] request in
            guard let self, let page else { return }
            let parent = page.window
            self.sharePanel = SharePanel(request, parent: parent) { [weak self, weak page] choice in
                guard let self else { return }
                self.sharePanel = nil
                self.lastShare = ["choice": .string(choice), "title": request.title.map(JSONValue.string) ?? .null,
                                  "text": request.text.map(JSONValue.string) ?? .null, "url": request.url.map(JSONValue.string) ?? .null]
                page?.shareClosed()
                self.onScreenChanged?()
            }
            self.onScreenChanged?()
        }
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
