import CGtk
import HostCore

/// How many of the WebKit objects the app makes per page — web views and their content managers
/// — are still alive, for `ctl state`'s `objects` (any app's: Studio's pages and sign-in
/// windows, a Capacitor app's page). A page that is let go of must free both: a count that
/// grows with every sheet or sign-in window is a leak (the soak and FuzzFindingsTests read it). Counted with a GObject weak reference on each: no ownership.
@MainActor
package enum LiveObjects {
    package enum Kind: Int, CaseIterable {
        case webView = 1, contentManager
        var name: String { self == .webView ? "webViews" : "contentManagers" }
    }

    private static var alive: [Kind: Int] = [:]

    /// Counts `object` until GObject finalizes it.
    package static func track(_ object: UnsafeMutableRawPointer, as kind: Kind) {
        alive[kind, default: 0] += 1
        // The kind travels as the weak reference's data: a small integer, not a pointer.
        g_object_weak_ref(object.assumingMemoryBound(to: GObject.self), { data, _ in
            let raw = Int(bitPattern: data)
            MainActor.assumeIsolated {
                if let kind = Kind(rawValue: raw) { LiveObjects.alive[kind, default: 1] -= 1 }
            }
        }, UnsafeMutableRawPointer(bitPattern: kind.rawValue))
    }

    /// How many of `kind` are alive now.
    static func count(_ kind: Kind) -> Int { alive[kind] ?? 0 }

    package static var json: JSONValue {
        .object(JSONObject(Kind.allCases.map { ($0.name, JSONValue.number(Double(alive[$0] ?? 0))) }))
    }
}
