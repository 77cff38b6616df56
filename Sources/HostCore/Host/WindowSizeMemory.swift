/// The window size remembered for one server, as a GNOME app keeps it: saved when the window
/// closes or shows another server, used the next time that server opens — unless the command
/// asked for a device's size (`--device`), which sets the starting size.
public struct RememberedWindowSize: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var maximized: Bool

    public init(width: Int, height: Int, maximized: Bool = false) {
        self.width = width
        self.height = height
        self.maximized = maximized
    }

    /// The sides a remembered size may have; anything else in the file is ignored (a window
    /// this small or large was not left by a person, or the file was edited).
    public static let sides = 200...8192
    public static let fileName = "window.json"

    /// The file's text.
    public var fileText: String {
        JSONWriter.string(["width": .number(Double(width)), "height": .number(Double(height)), "maximized": .bool(maximized)])
    }

    /// The size in the file's text, or nil when it is not one (missing, damaged, out of range).
    public static func parse(_ text: String) -> RememberedWindowSize? {
        guard let object = (try? JSONParser.parse(text, maxDepth: 4))?.objectValue,
              let width = object["width"]?.integerValue, let height = object["height"]?.integerValue,
              sides.contains(width), sides.contains(height) else { return nil }
        return RememberedWindowSize(width: width, height: height, maximized: object["maximized"]?.boolValue ?? false)
    }

    /// The size to open a server's window at: the device's when one was asked for, else the
    /// remembered one, else the default device's.
    public static func starting(remembered: RememberedWindowSize?, device: DeviceProfile, deviceAsked: Bool) -> RememberedWindowSize {
        if !deviceAsked, let remembered { return remembered }
        return RememberedWindowSize(width: device.windowSize.width, height: device.windowSize.height)
    }
}
