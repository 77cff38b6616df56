/// What `--device` and `--orientation` chose: a device of the catalogue held one way up, or a
/// desktop window (no device: today's desktop size, no device chrome, no scale of its own).
public struct DeviceChoice: Sendable, Equatable {
    /// nil for `desktop`.
    public var model: DeviceModel?
    public var orientation: DeviceOrientation
    /// The word it was chosen by (`phone`, `iPhone 16 Pro`, …), for messages.
    public var word: String

    public init(model: DeviceModel?, orientation: DeviceOrientation = .portrait, word: String? = nil) {
        self.model = model
        self.orientation = orientation
        self.word = word ?? model?.id ?? "desktop"
    }

    public static let desktop = DeviceChoice(model: nil)
    /// What `phone` and `tablet` name.
    public static let phone = DeviceChoice(model: DeviceCatalogue.model(named: "phone"), word: "phone")
    public static let tablet = DeviceChoice(model: DeviceCatalogue.model(named: "tablet"), word: "tablet")

    /// The idiom the rest of HostShell follows (tabs or sidebar, user agent, size class).
    public var profile: DeviceProfile { model?.profile ?? .desktop }

    /// The name shown in state: the catalogue id, or `desktop`.
    public var name: String { model?.id ?? "desktop" }

    /// The window's content size in points: the device's screen held this way up, or the
    /// desktop window's.
    public var size: PointSize {
        guard let model else { return PointSize(DeviceProfile.desktop.windowSize.width, DeviceProfile.desktop.windowSize.height) }
        return model.size(orientation)
    }

    /// Device pixels per point: the device's, 1 on the desktop.
    public var scale: Int { model?.scale ?? 1 }

    /// The status bar, home indicator and safe area of this orientation (none on the desktop).
    public var metrics: OrientationMetrics {
        model?.metrics(orientation) ?? OrientationMetrics(safeArea: EdgeInsets(), statusBar: 0, homeIndicator: 0)
    }

    /// The height left to the page between the status bar and the home indicator.
    public var pageHeight: Int { size.height - metrics.statusBar - metrics.homeIndicator }

    /// The headless screen (`HeadlessDisplay`) in device pixels: the device's screen this way up,
    /// or nil for the desktop (which keeps the display's own default size).
    public var headlessScreen: PointSize? { model.map { $0.pixelSize(orientation) } }

    /// The same device held the other way (or `to`); nil on the desktop, which does not turn.
    public func rotated(to: DeviceOrientation? = nil) -> DeviceChoice? {
        guard model != nil else { return nil }
        var turned = self
        turned.orientation = to ?? orientation.toggled
        return turned
    }

    /// The error for a word that names no device, listing those that do.
    public static func unknown(_ word: String) -> String {
        "no device \"\(TerminalText.escaped(word))\"; --device takes one of \(DeviceCatalogue.names.joined(separator: ", ")) (or Apple's name, e.g. \"iPhone 16 Pro\"); hostshell devices lists them"
    }

    /// `--device WORD` (and `--orientation`, when given): a catalogue id or Apple's name in any
    /// case, `phone`/`tablet` (a current iPhone and iPad) or `desktop`.
    package static func parse(_ word: String, orientation: String? = nil) -> Result<DeviceChoice, UsageError> {
        var chosen: DeviceChoice
        if DeviceCatalogue.normalized(word) == "desktop" {
            chosen = .desktop
        } else if let model = DeviceCatalogue.model(named: word) {
            chosen = DeviceChoice(model: model, word: word)
        } else {
            return .failure(UsageError(unknown(word)))
        }
        if let orientation {
            switch parseOrientation(orientation) {
            case .success(let turned): chosen.orientation = turned
            case .failure(let error): return .failure(error)
            }
        }
        return .success(chosen)
    }

    /// `--orientation portrait|landscape`.
    package static func parseOrientation(_ word: String) -> Result<DeviceOrientation, UsageError> {
        guard let orientation = DeviceOrientation(rawValue: word.lowercased()) else {
            return .failure(UsageError("--orientation takes portrait or landscape, not \"\(TerminalText.escaped(word))\""))
        }
        return .success(orientation)
    }

    /// A device choice with `--orientation` on the desktop is refused (a desktop window does not turn).
    package func checked(orientationGiven: Bool) -> Result<DeviceChoice, UsageError> {
        if orientationGiven && model == nil {
            return .failure(UsageError("--orientation applies to a named device (e.g. --device iphone-16), not to desktop"))
        }
        return .success(self)
    }
}
