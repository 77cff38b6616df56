/// Which way up a device is held. iOS's two interface orientations a page can tell apart
/// (`screen.orientation.type` portrait-primary / landscape-primary).
public enum DeviceOrientation: String, Sendable, CaseIterable {
    case portrait, landscape

    /// The other one (`ctl rotate` without an argument).
    public var toggled: DeviceOrientation { self == .portrait ? .landscape : .portrait }

    /// What `screen.orientation.type` says on the phone.
    public var screenOrientationType: String { self == .portrait ? "portrait-primary" : "landscape-primary" }
}

/// Distances in CSS points from each edge of the screen (safe-area insets).
public struct EdgeInsets: Sendable, Equatable {
    public var top: Int, left: Int, bottom: Int, right: Int

    public init(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    public var json: JSONValue {
        ["top": .number(Double(top)), "left": .number(Double(left)), "bottom": .number(Double(bottom)), "right": .number(Double(right))]
    }
}

/// A size in CSS points (iOS points: what `window.innerWidth` and `screen.width` count).
public struct PointSize: Sendable, Equatable {
    public var width: Int, height: Int
    public init(_ width: Int, _ height: Int) { self.width = width; self.height = height }

    /// Width and height exchanged (a portrait size turned landscape).
    public var swapped: PointSize { PointSize(height, width) }

    public var json: JSONValue { ["width": .number(Double(width)), "height": .number(Double(height))] }
}

/// What one orientation of a device gives a page: the safe-area insets (`env(safe-area-inset-*)`)
/// and the heights of the status bar and home indicator iOS draws over the edges.
public struct OrientationMetrics: Sendable, Equatable {
    public var safeArea: EdgeInsets
    /// 0 when the status bar is hidden (iPhones in landscape).
    public var statusBar: Int
    /// 0 on a device with a home button.
    public var homeIndicator: Int

    public init(safeArea: EdgeInsets, statusBar: Int, homeIndicator: Int) {
        self.safeArea = safeArea; self.statusBar = statusBar; self.homeIndicator = homeIndicator
    }
}

/// One iPhone or iPad of the catalogue (`DeviceCatalogue`): its screen in points, its scale
/// factor, its idiom (the `DeviceProfile` the rest of HostShell follows: tabs or sidebar, user
/// agent) and what each orientation gives a page.
public struct DeviceModel: Sendable, Equatable {
    /// The stable name `--device` takes, e.g. `iphone-16-pro`.
    public var id: String
    /// Apple's name, e.g. "iPhone 16 Pro" (also accepted by `--device`).
    public var name: String
    public var profile: DeviceProfile
    /// The portrait size in points.
    public var portraitSize: PointSize
    /// Device pixels per point (`devicePixelRatio`).
    public var scale: Int
    public var portrait: OrientationMetrics
    public var landscape: OrientationMetrics
    /// Whether the device has a home button (no home indicator then).
    public var homeButton: Bool

    public init(id: String, name: String, profile: DeviceProfile, portraitSize: PointSize, scale: Int,
                portrait: OrientationMetrics, landscape: OrientationMetrics, homeButton: Bool = false) {
        self.id = id; self.name = name; self.profile = profile; self.portraitSize = portraitSize; self.scale = scale
        self.portrait = portrait; self.landscape = landscape; self.homeButton = homeButton
    }

    /// The screen in points held this way up.
    public func size(_ orientation: DeviceOrientation) -> PointSize {
        orientation == .portrait ? portraitSize : portraitSize.swapped
    }

    /// The screen in device pixels held this way up.
    public func pixelSize(_ orientation: DeviceOrientation) -> PointSize {
        let size = size(orientation)
        return PointSize(size.width * scale, size.height * scale)
    }

    public func metrics(_ orientation: DeviceOrientation) -> OrientationMetrics {
        orientation == .portrait ? portrait : landscape
    }

    /// The user agent its web view sends: the idiom's (iPhone or iPad, iOS 18).
    public var userAgent: String { profile.userAgent }

    /// Whether the idiom is a phone (`phone`) or a tablet (`tablet`), as `hostshell devices` shows it.
    public var idiom: String { profile.rawValue }
}
