import CapacitorContract
import CapacitorShell
import DevFixtures
import HostCore
import PushShell
import ShellKit
import StudioContract
import StudioShell

/// `hostshell replay LOG …`: replays a bridge log against a fresh run of its app and reports
/// each answer that differs from the recorded one. The log's records say which app it is
/// (`BridgeLogKind`):
/// - Studio's (`open --bridge-log`): `replay LOG [SERVER-ID] [--device D] [--timeout S]
///   [--verbose]` opens the saved server as `open` does (headless when there is no display),
///   waits for Studio and sends every Studio-to-host message again from a page of the same
///   context (`BridgeReplay`).
/// - A Capacitor app's (`capacitor --bridge-log`): `replay LOG [PROJECT-DIR] [app flags]` runs
///   the app as `capacitor` does, on a throw-away profile, and once its page shows, makes every
///   plugin call of the log again from the page (`CapacitorReplayRun`).
/// Exit 0 when nothing differed, 1 when something did (or could not be sent), 2 for a file
/// that is not a bridge log.
enum ReplayCommand {
    static let usage = """
        usage: hostshell replay LOG [SERVER-ID] [--device phone|tablet|desktop] [--timeout SECONDS] [--verbose]
               hostshell replay LOG [PROJECT-DIR] [--web-dir DIR | --url URL] [--app-id ID] [--app-name NAME]
                                    [--device D] [--apns-environment E] [--timeout SECONDS] [--verbose]
          (the first for a Studio log from open --bridge-log, the second for a Capacitor app's log
           from capacitor --bridge-log; the log's records say which it is)
        """
    static let capacitorFlags = ["--web-dir", "--url", "--app-id", "--app-name", "--link-scheme", "--device", "--apns-environment", "--timeout"]

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let path = arguments.first, !path.hasPrefix("-") else { throw UsageError(usage) }
        var rest = Array(arguments.dropFirst())
        let verbose = rest.contains("--verbose")
        rest.removeAll { $0 == "--verbose" }
        let text = String(decoding: try FileReading.bytes(path), as: UTF8.self)
        let kind = try BridgeLogKind.detect(text).mapError { UsageError("\(path): \($0.message)") }.get()
        let allowed = kind == .capacitor ? capacitorFlags : ["--device", "--timeout", "--credential-store"]
        for flag in rest where flag.hasPrefix("-") && !allowed.contains(flag) {
            throw UsageError("replay of a \(kind == .capacitor ? "Capacitor app's" : "Studio") log does not take \(flag); \(usage)")
        }
        if !rest.contains("--timeout") { rest += ["--timeout", "60"] }
        switch kind {
        case .studio:
            let records = try ReplayRecord.parse(text).mapError { UsageError("\(path): \($0.message)") }.get()
            guard !records.isEmpty else { throw UsageError("\(path) has no Studio-to-host messages to replay") }
            return try OpenCommand.run(rest, replay: (records, verbose))
        case .capacitor:
            let calls = try CapacitorReplayCall.parse(text).mapError { UsageError("\(path): \($0.message)") }.get()
            guard !calls.isEmpty else { throw UsageError("\(path) has no plugin calls to replay") }
            return try CapacitorCommand.run(rest, plugins: .withHomeSec, replay: (calls, verbose, CapacitorReplayPermission.parse(text)))
        }
    }
}
