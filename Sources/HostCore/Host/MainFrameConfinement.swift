/// The main frame's confinement to the server's origin, as WebKit content-blocker rules, so a
/// navigation the policy refuses sends no request at all.
///
/// WebKitGTK's navigation decision does not say which frame a navigation is for, so the policy
/// lets a web address of another origin through at the action and judges it at its response
/// (`NavigationPolicy`) — by which time the request has reached the other server (a script's
/// `location = …` carried whatever it put in the address). The phone's web view knows the
/// frame at the action and cancels there. WebKit's content blockers do know the frame
/// (`load-context`) and stop a load before its request is made, so the rules here block every
/// top-frame document except the server's origin, content the page made itself (`about:`,
/// `data:`, `blob:`) and the addresses the app itself loads; the glue then judges a blocked load
/// as the policy would have at its response (refused, or a person's activation handed out).
public enum MainFrameConfinement {
    /// Content the page makes itself, let through whatever the origin.
    static let pageContent = ["about:", "data:", "blob:"]

    /// The rules, as WebKit's content-blocker JSON: block every top-frame document, then let
    /// the allowed prefixes through.
    public static func rules(origin: Origin, hostLoads: [String] = []) -> String {
        var allowed = ["^" + escaped(origin.description) + "/"] + pageContent.map { "^" + $0 }
        allowed += hostLoads.map { "^" + escaped($0) + "$" }
        func rule(_ filter: String, _ action: String) -> JSONValue {
            ["trigger": ["url-filter": .string(filter), "resource-type": ["document"], "load-context": ["top-frame"]],
             "action": ["type": .string(action)]]
        }
        return JSONWriter.string(.array([rule(".*", "block")] + allowed.map { rule($0, "ignore-previous-rules") }))
    }

    /// A name for the compiled rules that changes when they do (FNV-1a of the text), so apps on
    /// different servers never load each other's.
    public static func identifier(for rules: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in rules.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "hostshell-main-frame-" + String(hash, radix: 16)
    }

    /// Whether the rules for `origin` (and no host loads) let `url` through: the server's origin
    /// or the page's own content. A host load of anything else needs rules that name it.
    public static func admits(_ url: String, origin: Origin) -> Bool {
        let lower = url.asciiLowercased()
        return lower.hasPrefix(origin.description.asciiLowercased() + "/") || pageContent.contains { lower.hasPrefix($0) }
    }

    /// `text` with every character a content-blocker pattern treats specially escaped.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if "\\.*+?^$[](){}|".unicodeScalars.contains(scalar) { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}
