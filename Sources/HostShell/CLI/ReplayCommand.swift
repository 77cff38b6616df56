import BridgeRuntime

/// `hostshell replay LOG [SERVER-ID] [--device D] [--timeout S] [--verbose]`: opens the saved
/// server as `open` does (headless when there is no display), waits for Studio, sends every
/// Studio-to-host message of a bridge log (`open --bridge-log`) again from a page of the same
/// context, and reports each reply that differs from the recorded one. Exit 0 when none did, 1
/// when some did (or could not be sent), 2 for a log that is not a bridge log.
enum ReplayCommand {
    static let usage = "usage: hostshell replay LOG [SERVER-ID] [--device phone|tablet|desktop] [--timeout SECONDS] [--verbose]"

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let path = arguments.first, !path.hasPrefix("-") else { throw UsageError(usage) }
        var rest = Array(arguments.dropFirst())
        let verbose = rest.contains("--verbose")
        rest.removeAll { $0 == "--verbose" }
        for flag in rest where flag.hasPrefix("-") && !["--device", "--timeout", "--credential-store"].contains(flag) {
            throw UsageError("replay does not take \(flag); \(usage)")
        }
        let text = String(decoding: try FileReading.bytes(path), as: UTF8.self)
        let records: [ReplayRecord]
        switch ReplayRecord.parse(text) {
        case .success(let parsed): records = parsed
        case .failure(let problem): throw UsageError("\(path): \(problem.message)")
        }
        guard !records.isEmpty else { throw UsageError("\(path) has no Studio-to-host messages to replay") }
        if !rest.contains("--timeout") { rest += ["--timeout", "60"] }
        return try OpenCommand.run(rest, replay: (records, verbose))
    }
}
