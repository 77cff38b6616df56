/// How close a page here comes to the same page on the device: for each property a page can
/// read, what the phone gives (from the catalogue), what it gives here (known without a page,
/// or measured from the running page by `probeScript`) and, where they differ, why. HostShell
/// never makes a value up: what WebKitGTK cannot give is listed here instead.
public enum DeviceFidelity {
    /// One property's entry.
    public struct Entry: Sendable, Equatable {
        public var property: String
        public var phone: JSONValue
        /// nil: only a running page tells (`measuredAtRunTime`).
        public var here: JSONValue?
        /// Why here differs from the phone, when it does or may.
        public var reason: String

        public init(_ property: String, phone: JSONValue, here: JSONValue?, reason: String) {
            self.property = property; self.phone = phone; self.here = here; self.reason = reason
        }
    }

    public static let measuredAtRunTime = "measured at run time"

    /// The properties `probeScript` reads, in order.
    public static let properties = ["devicePixelRatio", "screen", "orientationMedia", "screenOrientation", "viewport", "safeAreaInsets",
                                    "pointer", "hover", "anyPointer", "touchEvents", "maxTouchPoints", "softwareKeyboard"]

    /// Reasons, by property.
    static let displayOwn = "a display of your own keeps its scale and size (HostShell changes only the Xvfb it starts itself when there is no DISPLAY)"
    static let reasons: [String: String] = [
        "devicePixelRatio": displayOwn,
        "screen": displayOwn,
        "screenOrientation": "WebKitGTK keeps the Screen Orientation API off; turned on, it says landscape-primary (angle 0) whatever the screen and window (measured on a portrait 750x1334 screen), so HostShell leaves it off rather than tell a portrait page it is landscape",
        "viewport": "on the phone a viewport-fit=cover page extends under the status bar and home indicator and reads env(safe-area-inset-*); WebKitGTK cannot give those insets, so HostShell lays the page out between them",
        "safeAreaInsets": "WebKitGTK has no way to give a page safe-area insets (only Apple's ports set them): env(safe-area-inset-*) is 0 here",
        "pointer": "WebKitGTK derives pointer, hover and touch from the display seat's input devices (a touch screen on the GdkSeat); Xvfb has a mouse and a keyboard only, and HostShell does not fake them",
        "softwareKeyboard": "there is no software keyboard: focusing a field leaves visualViewport.height as it was (on the phone it shrinks by the keyboard's height)",
    ]

    /// The entries for `choice` before a page has run. `ownDisplay`: HostShell started the Xvfb
    /// (at the device's size and scale, in `startedIn` orientation).
    public static func expected(_ choice: DeviceChoice, ownDisplay: Bool, startedIn: DeviceOrientation) -> [Entry] {
        guard let model = choice.model else { return [] }
        let orientation = choice.orientation
        let size = model.size(orientation)
        let metrics = model.metrics(orientation)
        let screenFollows = ownDisplay && orientation == startedIn
        let pointerReason = reasons["pointer"]!
        let unknown = Optional<JSONValue>.none  // (JSONValue takes `nil` as its own null)
        return [
            Entry("devicePixelRatio", phone: .number(Double(model.scale)), here: ownDisplay ? .number(Double(model.scale)) : unknown, reason: displayOwn),
            Entry("screen", phone: size.json, here: screenFollows ? size.json : unknown,
                  reason: ownDisplay ? "HostShell's Xvfb keeps the size it started with (\(startedIn.rawValue)); it does not turn with the window" : displayOwn),
            Entry("orientationMedia", phone: .string(orientation.rawValue), here: .string(orientation.rawValue),
                  reason: "the window turns, so the page's viewport does"),
            Entry("screenOrientation", phone: .string(orientation.screenOrientationType), here: unknown, reason: reasons["screenOrientation"]!),
            Entry("viewport", phone: size.json, here: PointSize(size.width, choice.pageHeight).json, reason: reasons["viewport"]!),
            Entry("safeAreaInsets", phone: metrics.safeArea.json, here: EdgeInsets().json, reason: reasons["safeAreaInsets"]!),
            Entry("pointer", phone: "coarse", here: ownDisplay ? "fine" : unknown, reason: pointerReason),
            Entry("hover", phone: "none", here: ownDisplay ? "hover" : unknown, reason: pointerReason),
            Entry("anyPointer", phone: "coarse", here: ownDisplay ? "fine" : unknown, reason: pointerReason),
            Entry("touchEvents", phone: true, here: unknown, reason: pointerReason),
            Entry("maxTouchPoints", phone: 5, here: unknown, reason: pointerReason),
            Entry("softwareKeyboard", phone: "shrinks visualViewport", here: "none", reason: reasons["softwareKeyboard"]!),
        ]
    }

    /// The report: every entry with `here` from `measured` (the probe's answer) where the page
    /// told it, `matches` and, where it does not match (or is not known yet), the reason.
    public static func report(_ entries: [Entry], measured: JSONObject?) -> JSONValue {
        .array(entries.map { entry in
            let here = measured?[entry.property] ?? entry.here
            var object: JSONObject = ["property": .string(entry.property), "phone": entry.phone,
                                      "here": here ?? .string(measuredAtRunTime)]
            object["measured"] = .bool(measured?[entry.property] != nil)
            if let here {
                object["matches"] = .bool(here == entry.phone)
                if here != entry.phone { object["why"] = .string(entry.reason) }
            } else {
                object["matches"] = .null
                object["why"] = .string(entry.reason)
            }
            return .object(object)
        })
    }

    /// A script that reads what the page sees (nothing is set or overridden) and answers with an
    /// object of `properties` (`softwareKeyboard` is not something a script can read; its entry
    /// stays as known).
    public static let probeScript = """
        (() => {
          const q = (m) => matchMedia(m).matches;
          const probe = document.createElement('div');
          probe.style.cssText = 'position:fixed;visibility:hidden;padding:env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left)';
          (document.body || document.documentElement).appendChild(probe);
          const s = getComputedStyle(probe);
          const inset = (v) => Math.round(parseFloat(v) || 0);
          const insets = {top: inset(s.paddingTop), left: inset(s.paddingLeft), bottom: inset(s.paddingBottom), right: inset(s.paddingRight)};
          probe.remove();
          return {
            devicePixelRatio: window.devicePixelRatio,
            screen: {width: screen.width, height: screen.height},
            orientationMedia: q('(orientation: portrait)') ? 'portrait' : 'landscape',
            screenOrientation: (screen.orientation && screen.orientation.type) || null,
            viewport: {width: window.innerWidth, height: window.innerHeight},
            safeAreaInsets: insets,
            pointer: q('(pointer: coarse)') ? 'coarse' : q('(pointer: fine)') ? 'fine' : 'none',
            hover: q('(hover: hover)') ? 'hover' : 'none',
            anyPointer: q('(any-pointer: coarse)') ? 'coarse' : q('(any-pointer: fine)') ? 'fine' : 'none',
            touchEvents: 'ontouchstart' in window,
            maxTouchPoints: navigator.maxTouchPoints
          };
        })()
        """
}
