import CGtk
import HostCore

/// The simulator's text size on a page: WebKit's text zoom (text only, layout sizes stay) at
/// the ratio `ContentSizeCategory.textZoom` gives, on every page, those made later included.
extension WebPage {
    /// The text zoom every page gets (`SimulatorControls.setTextSize`); 1 is the default (large).
    static var textZoom = 1.0

    func applyTextZoom() {
        guard !closed else { return }
        let settings = webkit_web_view_get_settings(view)
        webkit_settings_set_zoom_text_only(settings, 1)
        webkit_web_view_set_zoom_level(view, Self.textZoom)
    }
}
