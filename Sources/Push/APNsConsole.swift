import HostCore

/// What the APNs stand-in says on its output (stderr) about where pushes go: where it looks for
/// apps at start, a push taken for a token no app here holds (once per token, for the first
/// `maxToldTokens` tokens, so a flood of random tokens cannot fill a log or block on a pipe
/// nobody reads), and, with `--verbose`, one line per request.
/// Apps are found through their phone directory (`PhoneDirectory`), which is per user and per
/// `$XDG_RUNTIME_DIR`: a stand-in started with another one finds nothing, and says so.
public struct APNsConsole: Sendable {
    /// The most tokens told about; past it one last line says the rest are not.
    public static let maxToldTokens = 100

    private var told: Set<String> = []
    private var stopped = false

    public init() {}

    /// The start line: where apps are looked for and what decides it.
    public static func startLine(phoneDirectory: String, runtimeDirectorySet: Bool) -> String {
        "APNs stand-in: apps holding tokens are looked for in \(TerminalText.escaped(phoneDirectory))"
            + (runtimeDirectorySet ? " ($XDG_RUNTIME_DIR)" : " (XDG_RUNTIME_DIR is not set: the cache directory stands in)")
            + "; an app must be started with the same XDG_RUNTIME_DIR to get pushes"
    }

    /// The line for a push accepted for `token` that no app here holds, the first time only.
    public mutating func unheld(token: String, phoneDirectory: String) -> String? {
        let key = token.lowercased()
        guard !stopped, !told.contains(key) else { return nil }
        if told.count >= Self.maxToldTokens {
            stopped = true
            return "APNs stand-in: pushes for \(Self.maxToldTokens) tokens no app here holds were told; further ones are not (--verbose and --record show every request)"
        }
        told.insert(key)
        return "APNs stand-in: a push for token …\(token.suffix(8)) was accepted but no app here holds that token "
            + "(none registered it in \(TerminalText.escaped(phoneDirectory))); is the app running with the same XDG_RUNTIME_DIR, "
            + "and did it register for push? (said once per token)"
    }

    /// `--verbose`: one line per request — listener, HTTP version, method, path (the token cut
    /// to its end), topic, the answer, and what became of the push (`outcome`).
    public static func requestLine(_ request: APNsRequest, _ decision: APNsDecision, environment: APNsEnvironment,
                                   transport: String, outcome: String?) -> String {
        var path = request.path
        if let token = APNsStandIn.deviceToken(inPath: path), token.count > 8 { path = "/3/device/…" + token.suffix(8) }
        var line = "APNs stand-in: \(environment.rawValue) \(transport) \(request.method) \(path)"
        if let topic = request.header("apns-topic") { line += " topic " + topic }
        line += " → \(decision.status)" + (decision.reason.map { " " + $0.rawValue } ?? "")
        if let fault = decision.fault { line += " (fault \(fault))" }
        if let outcome { line += ", " + outcome }
        return TerminalText.escaped(line)
    }

    /// What became of an accepted push, in words: what the device answered, or nil when no
    /// app here holds its token.
    public static func outcome(_ ack: PhoneAck?) -> String {
        switch ack {
        case nil: "no app here holds the token"
        case .kept?: "kept for the app's next start"
        case .refused(let why)?: "the device refused it: " + why
        case let other?: "delivered (" + other.word + ")"
        }
    }
}
