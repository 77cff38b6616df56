/// `hostshell device [--socket S | NAME] WORDS…`: Xcode's `xcrun simctl` words for a running
/// app, each mapped to the `ctl` command that does the same on the app's control socket.
public enum SimctlMapping {
    /// What to send for one simctl command.
    public struct Mapped: Sendable, Equatable {
        /// The `ctl` words.
        public var ctl: [String]
        /// `pbcopy`: standard input is the last word.
        public var readsStandardInput = false
        /// `pbpaste`: print the result's text as it is, not as JSON.
        public var printsText = false
        /// `io recordVideo`: record until interrupted (SIGINT), then send these words.
        public var untilInterrupted: [String]?

        public init(_ ctl: [String], readsStandardInput: Bool = false, printsText: Bool = false, untilInterrupted: [String]? = nil) {
            self.ctl = ctl
            self.readsStandardInput = readsStandardInput
            self.printsText = printsText
            self.untilInterrupted = untilInterrupted
        }
    }

    /// simctl's command beside HostShell's, for `hostshell device --help` and the README.
    public static let table: [(simctl: String, hostshell: String)] = [
        ("privacy grant|revoke|reset KIND", "ctl privacy grant|revoke|reset KIND"),
        ("ui appearance light|dark", "ctl appearance light|dark"),
        ("ui increase_contrast enabled|disabled", "ctl contrast on|off"),
        ("ui content_size CATEGORY", "ctl text-size CATEGORY"),
        ("location set LAT,LON", "ctl location set LAT,LON"),
        ("location start --speed S LAT,LON…", "ctl location route --speed S LAT,LON…"),
        ("location clear", "ctl location clear"),
        ("pbcopy (text on stdin)", "ctl pasteboard set TEXT"),
        ("pbpaste", "ctl pasteboard get"),
        ("status_bar override --time T --batteryLevel N --batteryState S --cellularBars N --wifiBars N --operatorName X",
         "ctl status-bar --time T --battery N --charging|--no-charging --cellular N --wifi N --carrier X"),
        ("status_bar clear", "ctl status-bar clear"),
        ("erase", "ctl erase"),
        ("keychain add-root-cert FILE", "ctl trust-root-cert add FILE"),
        ("keychain reset", "ctl trust-root-cert clear"),
        ("io recordVideo FILE (until Ctrl-C)", "ctl record start FILE, then ctl record stop"),
        ("io screenshot FILE.png", "ctl snapshot FILE.png"),
        ("openurl LINK", "ctl open-url LINK"),
        ("rotate (Simulator: Device › Rotate)", "ctl rotate"),
        ("locale LL-CC (Settings › Language & Region)", "ctl locale LL-CC"),
        ("timezone AREA/CITY (Settings › Date & Time)", "ctl timezone AREA/CITY"),
        ("list devicetypes", "hostshell devices [--json]"),
    ]

    /// The `ctl` words for simctl's `words` (after the app is named), or what is wrong with them.
    public static func map(_ words: [String]) -> Result<Mapped, ControlError> {
        do throws(ControlError) { return .success(try mapped(words)) } catch { return .failure(error) }
    }

    private static func mapped(_ words: [String]) throws(ControlError) -> Mapped {
        guard let command = words.first else {
            throw ControlError("name a simulator command: \(commands.joined(separator: ", ")) (hostshell device --help)")
        }
        let rest = Array(words.dropFirst())
        func exactly(_ count: Int, _ usage: String) throws(ControlError) {
            guard rest.count == count else { throw ControlError("device \(command) takes \(usage)") }
        }
        switch command {
        case "privacy":
            try exactly(2, "grant|revoke|reset KIND (camera, microphone, location, notifications, photos, clipboard, motion)")
            guard ["grant", "revoke", "reset"].contains(rest[0]) else { throw ControlError("device privacy takes grant, revoke or reset, then KIND") }
            return Mapped(["privacy", rest[0], privacyKind(rest[1])])
        case "ui":
            guard rest.count == 2 else { throw ControlError("device ui takes appearance light|dark, increase_contrast enabled|disabled or content_size CATEGORY") }
            switch rest[0] {
            case "appearance":
                guard ["light", "dark"].contains(rest[1]) else { throw ControlError("device ui appearance takes light or dark") }
                return Mapped(["appearance", rest[1]])
            case "increase_contrast":
                let on = ["enabled": "on", "disabled": "off"][rest[1]]
                guard let on else { throw ControlError("device ui increase_contrast takes enabled or disabled") }
                return Mapped(["contrast", on])
            case "content_size": return Mapped(["text-size", rest[1]])
            default: throw ControlError("device ui takes appearance, increase_contrast or content_size, not \"\(rest[0])\"")
            }
        case "location":
            switch rest.first {
            case "set":
                try exactly(2, "set LAT,LON")
                return Mapped(["location", "set", rest[1]])
            case "start":
                var points = Array(rest.dropFirst())
                var ctl = ["location", "route"]
                if let index = points.firstIndex(where: { $0 == "--speed" || $0.hasPrefix("--speed=") }) {
                    let value: String
                    if points[index].hasPrefix("--speed=") {
                        value = String(points[index].dropFirst("--speed=".count))
                        points.remove(at: index)
                    } else {
                        guard index + 1 < points.count else { throw ControlError("--speed takes metres per second") }
                        value = points[index + 1]
                        points.removeSubrange(index...index + 1)
                    }
                    ctl += ["--speed", value]
                }
                if let option = points.first(where: { $0.hasPrefix("-") && !$0.hasPrefix("-0") && Double($0.split(separator: ",").first ?? "") == nil }) {
                    throw ControlError("device location start takes --speed S and points LAT,LON; \(option) is not supported here")
                }
                guard points.count >= 2 else { throw ControlError("device location start takes at least two points LAT,LON (a route)") }
                return Mapped(ctl + points)
            case "clear":
                try exactly(1, "clear")
                return Mapped(["location", "clear"])
            default: throw ControlError("device location takes set LAT,LON, start [--speed S] LAT,LON… or clear")
            }
        case "pbcopy":
            try exactly(0, "no arguments: the text comes on standard input")
            return Mapped(["pasteboard", "set"], readsStandardInput: true)
        case "pbpaste":
            try exactly(0, "no arguments")
            return Mapped(["pasteboard", "get"], printsText: true)
        case "status_bar":
            return Mapped(try statusBar(rest))
        case "erase":
            try exactly(0, "no arguments")
            return Mapped(["erase"])
        case "keychain":
            switch rest.first {
            case "add-root-cert":
                try exactly(2, "add-root-cert FILE.pem")
                return Mapped(["trust-root-cert", "add", rest[1]])
            case "reset":
                try exactly(1, "reset")
                return Mapped(["trust-root-cert", "clear"])
            default: throw ControlError("device keychain takes add-root-cert FILE.pem or reset (add-ca-cert is the same as add-root-cert here)")
            }
        case "io":
            guard rest.count == 2 else { throw ControlError("device io takes recordVideo FILE or screenshot FILE.png") }
            switch rest[0] {
            case "recordVideo": return Mapped(["record", "start", rest[1]], untilInterrupted: ["record", "stop"])
            case "screenshot": return Mapped(["snapshot", rest[1]])
            default: throw ControlError("device io takes recordVideo FILE or screenshot FILE.png, not \"\(rest[0])\"")
            }
        case "openurl":
            try exactly(1, "the link")
            return Mapped(["open-url", rest[0]])
        case "rotate":
            return Mapped(["rotate"] + rest)
        case "locale":
            try exactly(1, "a locale such as fr-FR")
            return Mapped(["locale", rest[0]])
        case "timezone":
            try exactly(1, "a time zone such as Europe/Paris")
            return Mapped(["timezone", rest[0]])
        default:
            let near = CommandLineRules.nearest(to: command, among: commands).map { "; did you mean \($0)?" } ?? ""
            throw ControlError("\"\(command)\" is not a simulator command here\(near) Commands: \(commands.joined(separator: ", "))")
        }
    }

    /// The commands `map` takes.
    public static let commands = ["privacy", "ui", "location", "pbcopy", "pbpaste", "status_bar", "erase", "keychain", "io",
                                  "openurl", "rotate", "locale", "timezone"]

    /// simctl's service names that differ from HostShell's permission kinds.
    static func privacyKind(_ service: String) -> String {
        switch service {
        case "location-always": "location"
        case "photos-add": "photos"
        default: service
        }
    }

    /// `status_bar override …` / `status_bar clear` as `status-bar …`.
    static func statusBar(_ rest: [String]) throws(ControlError) -> [String] {
        switch rest.first {
        case "clear":
            guard rest.count == 1 else { throw ControlError("device status_bar clear takes no more arguments") }
            return ["status-bar", "clear"]
        case "override":
            var ctl = ["status-bar"]
            var words = rest.dropFirst()[...]
            let flags = ["--time": "--time", "--batteryLevel": "--battery", "--cellularBars": "--cellular",
                         "--wifiBars": "--wifi", "--operatorName": "--carrier"]
            while let flag = words.popFirst() {
                guard let value = words.popFirst() else { throw ControlError("\(flag) takes a value") }
                if flag == "--batteryState" {
                    guard ["charging", "charged", "discharging"].contains(value) else {
                        throw ControlError("--batteryState takes charging, charged or discharging")
                    }
                    // Plugged in (charging, or charged full) shows the bolt; on battery it does not.
                    ctl.append(value == "discharging" ? "--no-charging" : "--charging")
                } else if let mapped = flags[flag] {
                    ctl += [mapped, value]
                } else {
                    throw ControlError("device status_bar override takes --time, --batteryLevel, --batteryState, --cellularBars, --wifiBars and --operatorName; not \(flag)")
                }
            }
            guard ctl.count > 1 else { throw ControlError("device status_bar override takes at least one of --time, --batteryLevel, --batteryState, --cellularBars, --wifiBars, --operatorName") }
            return ctl
        default:
            throw ControlError("device status_bar takes override --time T … or clear")
        }
    }

    /// `hostshell device --help`'s table: simctl's command, then HostShell's.
    public static var helpTable: String {
        let width = min(48, table.map(\.simctl.count).max() ?? 0)
        return table.map { row in
            let pad = row.simctl.count < width ? String(repeating: " ", count: width - row.simctl.count) : "\n  " + String(repeating: " ", count: width)
            return "  " + row.simctl + pad + "  " + row.hostshell
        }.joined(separator: "\n")
    }
}
