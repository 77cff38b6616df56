import Foundation
import Testing

/// The app's process tree as /proc shows it: the app, its WebKit processes (the sandbox's
/// launchers between them are walked through, never touched), and their resident memory.
struct ProcessTree {
    struct Member { let pid: Int32; let program: String; let rssKiB: Int }
    let members: [Member]

    init(root: Int32) {
        var found: [Member] = []
        var queue = [root]
        while let pid = queue.popLast() {
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            let program = command.split(separator: "\0", maxSplits: 1).first.map { String($0.split(separator: "/").last ?? "") } ?? ""
            found.append(Member(pid: pid, program: program, rssKiB: Self.rssKiB(pid)))
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            queue += children.split(separator: " ").compactMap { Int32($0) }
        }
        members = found
    }

    /// VmRSS of `pid` in KiB (0 when it is gone).
    static func rssKiB(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func pids(_ program: String) -> [Int32] { members.filter { $0.program == program }.map(\.pid) }
    var totalKiB: Int { members.reduce(0) { $0 + $1.rssKiB } }
    func kiB(_ program: String) -> Int { members.filter { $0.program == program }.reduce(0) { $0 + $1.rssKiB } }

    /// One line for the report: the app's RSS, each WebKit process kind's, and the total.
    var summary: String {
        let app = members.first.map(\.rssKiB) ?? 0
        return String(format: "app %.1f MiB, web %.1f MiB, network %.1f MiB, tree %.1f MiB (%d processes)",
                      Double(app) / 1024, Double(kiB("WebKitWebProcess")) / 1024, Double(kiB("WebKitNetworkProcess")) / 1024,
                      Double(totalKiB) / 1024, members.count)
    }
}

/// Runs page scripts for the fuzzer and the soak: an async expression whose value comes back as
/// JSON text through `window.__result`, waited on (never slept on).
struct PageScript {
    let app: RunningApp

    /// Runs `body` (the inside of an async function) in main's page or the shown sheet's, and
    /// returns its value, decoded from JSON. A thrown error comes back as `["error": text]`.
    func run(_ body: String, sheet: Bool = false, timeout: Double = 60) throws -> [String: Any] {
        let start = "window.__result = undefined; (async () => { \(body) })().then((v) => { window.__result = JSON.stringify(v ?? null); }, "
            + "(e) => { window.__result = JSON.stringify({ error: String(e && e.stack || e) }); }); true"
        let started = try app.ctl(["eval"] + (sheet ? ["--sheet"] : []) + [start])
        let seen = started.status == 0 ? "" : app.currentState().map { " (screen \($0["screen"] ?? "?"), status \($0["status"] ?? "none"), webProcess \($0["webProcess"] ?? "?"))" } ?? " (no state)"
        try #require(started.status == 0, "eval: \(started.error)\(seen)")
        let text = try app.evalWhen("window.__result === undefined ? null : window.__result", sheet: sheet, timeout: timeout)
        let data = Data(((text as? String) ?? "null").utf8)
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}

/// A dotted path into a state (numbers index arrays).
func stateValue(_ state: [String: Any], _ path: String) -> Any? {
    var value: Any? = state
    for key in path.split(separator: ".") {
        if let array = value as? [Any], let index = Int(key) {
            value = array.indices.contains(index) ? array[index] : nil
        } else {
            value = (value as? [String: Any])?[String(key)]
        }
    }
    return value is NSNull ? nil : value
}

extension RunningApp {
    /// Lines the app and its web processes logged that a live test must never see.
    func criticalsLogged() -> [String] {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("-CRITICAL **") }.map(String.init)
    }

    /// The state, or nil when the app does not answer `ctl state`.
    func currentState() -> [String: Any]? {
        guard let answer = try? ctl("state"), answer.status == 0 else { return nil }
        return answer.result as? [String: Any]
    }
}
