import CGtk
import HostCore

/// Carries out the simulator's controls (`SimulatorCommand`) for the running app, whatever kind
/// it is: privacy through the shown profile's `PermissionCenter` (and the app's own plugins,
/// `HostedApp.privacyChanged`), appearance through libadwaita's style manager, contrast as
/// libadwaita's high-contrast stylesheet on the native chrome, text size as WebKit's text zoom on
/// every page, the location through WebKit's geolocation manager (`+Location`), and the
/// pasteboard as the display's clipboard (`+Pasteboard`). One per app (`AppEnvironment`); the
/// rules and tables are HostCore's.
@MainActor
package final class SimulatorControls {
    package private(set) var appearance = Appearance.auto
    package private(set) var contrast = false
    package private(set) var textSize = ContentSizeCategory.standard
    /// The high-contrast stylesheet while contrast is on.
    private var contrastStyle: OpaquePointer?
    /// The location machine and its timers (`+Location`).
    var location: MachineLoop<SimulatedLocation>?
    var locationTimers: TimerBank<SimulatedLocation.TimerName>?
    var geolocationStarted = false
    var geolocationSignals: [SignalConnection] = []
    /// What the clipboard holds, as last read (`+Pasteboard`).
    var pasteboardText: String?
    var pasteboardChanges = 0
    var pasteboardSignal: SignalConnection?

    package init() {}

    /// Carries out `command` for `app`, answering with `ok` or `fail`.
    package func handle(_ command: SimulatorCommand, app: any HostedApp, ok: @escaping @MainActor (JSONValue) -> Void,
                        fail: @escaping @MainActor (String) -> Void) {
        switch command {
        case .privacy(let change, let kinds):
            setPrivacy(change, kinds, app: app)
            ok(["message": .string("\(kinds.map(\.rawValue).joined(separator: ", ")): \(change == .reset ? "will be asked again" : change == .grant ? "granted" : "denied")"),
                "privacy": PrivacyState.json(app.mainWebPage.permissions.machine.remembered),
                "reach": .object(JSONObject(kinds.map { ($0.rawValue, JSONValue.string($0.reach)) }))])
        case .appearance(let appearance):
            setAppearance(appearance)
            ok(["message": .string("appearance \(appearance.rawValue)")])
        case .contrast(let on):
            setContrast(on)
            ok(["message": .string("increase contrast \(on ? "on" : "off")")])
        case .textSize(let category):
            setTextSize(category)
            ok(["message": .string("text size \(category.rawValue) (text zoom \(category.textZoom))")])
        case .location(let request):
            locate(request)
            ok(["message": .string("location \(locationJSON.objectValue?["mode"]?.stringValue ?? "")"), "location": locationJSON])
        case .pasteboard(let request):
            pasteboard(request, ok: ok, fail: fail)
        }
    }

    /// Every control back to the phone's defaults (`erase` calls it): privacy reset for every
    /// kind, appearance auto, contrast off, text size large, location cleared, the pasteboard
    /// emptied (an erased simulator's pasteboard is empty too).
    package func reset(app: any HostedApp) {
        setPrivacy(.reset, PrivacyKind.allCases, app: app)
        setAppearance(.auto)
        setContrast(false)
        setTextSize(.standard)
        locate(.clear)
        clearPasteboard()
    }

    /// `--grant KIND` / `--revoke KIND` given before launch, for the app's profile.
    package func setPrivacy(_ change: PrivacyChange, _ kinds: [PrivacyKind], app: any HostedApp) {
        app.mainWebPage.permissions.setPrivacy(kinds.map(\.permission), answer: change.answer)
        app.privacyChanged(kinds, answer: change.answer)
    }

    func setAppearance(_ appearance: Appearance) {
        self.appearance = appearance
        let scheme: AdwColorScheme = switch appearance {
        case .light: ADW_COLOR_SCHEME_FORCE_LIGHT
        case .dark: ADW_COLOR_SCHEME_FORCE_DARK
        case .auto: ADW_COLOR_SCHEME_DEFAULT
        }
        adw_style_manager_set_color_scheme(adw_style_manager_get_default(), scheme)
    }

    func setContrast(_ on: Bool) {
        contrast = on
        guard let display = gdk_display_get_default() else { return }
        if on, contrastStyle == nil {
            // libadwaita's own high-contrast sheet (the one it adds when the desktop asks for
            // high contrast, which an app cannot set), above its base style.
            let provider = gtk_css_provider_new()!
            gtk_css_provider_load_from_resource(provider, "/org/gnome/Adwaita/styles/base-hc.css")
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_THEME + 1))
            contrastStyle = OpaquePointer(provider)
        } else if !on, let provider = contrastStyle {
            gtk_style_context_remove_provider_for_display(display, provider)
            g_object_unref(UnsafeMutableRawPointer(provider))
            contrastStyle = nil
        }
    }

    func setTextSize(_ category: ContentSizeCategory) {
        textSize = category
        WebPage.textZoom = category.textZoom
        for entry in WebPage.live.values { entry.page?.applyTextZoom() }
    }

    /// `ctl state`'s `appearance`.
    package var appearanceJSON: JSONValue {
        var object: JSONObject = ["scheme": .string(appearance.rawValue), "contrast": .bool(contrast),
                                  "textSize": .string(textSize.rawValue), "textZoom": .number(textSize.textZoom)]
        var fidelity: JSONObject = ["textSize": DisplayFidelity.textSize]
        if case let note = DisplayFidelity.contrast(pageFollows: false), note != .null { fidelity["contrast"] = note }
        object["fidelity"] = .object(fidelity)
        return .object(object)
    }
}
