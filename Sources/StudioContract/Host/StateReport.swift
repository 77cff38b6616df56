import HostCore

/// The native UI state of a page as JSON, for state files, probes and (later) the control
/// interface. Describes only what the host shows and knows; never any credential.
public enum StateReport {
    /// How many of the latest notices, and of the latest haptic feedbacks, a state dump keeps.
    public static let keptNotices = 10
    public static let keptHaptics = 20

    /// `list` with `item` added at the end, keeping only the latest `limit` entries.
    public static func appending<T>(_ item: T, to list: [T], keeping limit: Int) -> [T] {
        KeptList.appending(item, to: list, keeping: limit)
    }

    /// `screen`: what the window shows over the page (an error screen selects nothing).
    public static func json(_ session: PageSession, screen: Screen = .page) -> JSONValue {
        let chrome = session.nativeChrome.shown(over: screen)
        var navigation = JSONObject()
        switch chrome.layout {
        case .none:
            navigation["kind"] = "none"
        case .tabs(let tabs, let more):
            navigation["kind"] = "tabs"
            navigation["tabs"] = .array(tabs.map(destination))
            navigation["more"] = .array(more.map(destination))
        case .sidebar(let groups):
            navigation["kind"] = "sidebar"
            navigation["groups"] = .array(groups.map { group in
                ["id": .string(group.id), "title": group.title.map(JSONValue.string) ?? .null,
                 "items": .array(group.items.map(destination))]
            })
        }
        navigation["selected"] = chrome.selectedDestinationId.map(JSONValue.string) ?? .null
        let backBar: JSONValue = chrome.backBar.map { bar in
            ["title": bar.title.map(JSONValue.string) ?? .null, "label": .string(bar.backLabel)]
        } ?? .null
        return [
            "context": .string(session.context.rawValue),
            "device": .string(session.profile.rawValue),
            "sizeClass": .string(session.sizeClass.rawValue),
            "negotiated": .bool(session.negotiated),
            "frontendReady": .bool(session.frontendReady),
            "hostCapabilities": .array(session.offered.enabled.sorted().map { .string($0.rawValue) }),
            "studioCapabilities": .array(StudioCapability.allCases.filter(session.studioCapabilities.contains).map { .string($0.rawValue) }),
            "navigation": .object(navigation),
            "backBar": backBar,
        ]
    }

    static func destination(_ d: Destination) -> JSONValue {
        ["id": .string(d.id), "title": .string(d.title), "icon": .string(d.icon)]
    }
}
