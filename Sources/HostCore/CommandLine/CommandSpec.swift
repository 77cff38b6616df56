/// One option a command takes: its name (`--device`), the placeholder of its value when it takes
/// one (`D`), and a line of help.
public struct OptionSpec: Sendable, Equatable {
    public let name: String
    public let value: String?
    public let help: String
    /// An option without a value (a switch).
    public init(_ name: String, _ help: String) {
        self.name = name
        self.value = nil
        self.help = help
    }
    /// An option followed by a value.
    public init(_ name: String, value: String, _ help: String) {
        self.name = name
        self.value = value
        self.help = help
    }
}

/// What a subcommand takes, as its `--help` shows it and as the dispatcher checks it: the usage
/// lines, a summary, and every option. The one place a command's options are listed, so its help
/// and the check of its arguments cannot disagree.
public struct CommandSpec: Sendable {
    public let name: String
    /// Usage lines without the leading `hostshell ` (e.g. `open [SERVER-ID] [--device D]`).
    public let usage: [String]
    public let summary: String
    public let options: [OptionSpec]
    /// Whether the dispatcher refuses options it does not know. Off for a command whose later
    /// arguments are free text (`ctl … eval SCRIPT`), which checks its own.
    public let checksOptions: Bool

    public init(_ name: String, usage: [String], summary: String, options: [OptionSpec], checksOptions: Bool = true) {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = options
        self.checksOptions = checksOptions
    }

    public var optionNames: [String] { options.map(\.name) }

    /// The text `hostshell NAME --help` prints: usage, summary, one line per option.
    public var helpText: String {
        var lines = usage.enumerated().map { ($0.offset == 0 ? "Usage: hostshell " : "       hostshell ") + $0.element }
        lines.append("")
        lines.append(summary)
        lines.append("")
        lines.append("Options:")
        let all = options + [OptionSpec("--help", "show this help")]
        let labels = all.map { option in option.value.map { "\(option.name) \($0)" } ?? option.name }
        let width = min(24, labels.map(\.count).max() ?? 0)
        for (label, option) in zip(labels, all) {
            if label.count > width {
                lines.append("  \(label)")
                lines.append(String(repeating: " ", count: width + 4) + option.help)
            } else {
                lines.append("  \(label)\(String(repeating: " ", count: width - label.count))  \(option.help)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The command line's conventions, decided once for every subcommand.
public enum CommandLineRules {
    /// `--help` or `-h` anywhere among a command's arguments asks for its help.
    public static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.contains("--help") || arguments.contains("-h")
    }

    /// Whether an argument is written as an option: `-x` or `--word`; `-` alone (standard input)
    /// and negative numbers are not.
    public static func looksLikeOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument.count > 1 else { return false }
        return Double(argument) == nil
    }

    /// The first argument written as an option that the command does not take, with what to do
    /// about it (the nearest option it does take, when one is close), or nil when all are known.
    /// The argument after an option that takes a value is that value, whatever it looks like.
    public static func unknownOption(in arguments: [String], of spec: CommandSpec) -> String? {
        guard spec.checksOptions else { return nil }
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            // Past `--` the words are another command's (`fleet --webdriver ADDRESS -- KIND ARGS…`).
            if argument == "--" { return nil }
            if let option = spec.options.first(where: { $0.name == argument }) {
                if option.value != nil { _ = rest.popFirst() }
                continue
            }
            guard looksLikeOption(argument), argument != "--help", argument != "-h" else { continue }
            return unknownOptionMessage(argument, command: spec.name, known: spec.optionNames)
        }
        return nil
    }

    /// `unknown option "--devcie" for open; did you mean --device? (hostshell open --help lists what it takes)`
    public static func unknownOptionMessage(_ argument: String, command: String, known: [String], help: String? = nil) -> String {
        var message = "unknown option \"\(argument)\" for \(command)"
        if let equals = argument.firstIndex(of: "="), known.contains(String(argument[..<equals])) {
            let name = argument[..<equals]
            message += "; write the value after a space: \(name) \(argument[argument.index(after: equals)...])"
        } else if let near = nearest(to: argument, among: known) {
            message += "; did you mean \(near)?"
        } else if known.isEmpty {
            message += "; it takes no options"
        }
        return message + " (\(help ?? "hostshell \(command) --help") lists what it takes)"
    }

    /// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
    /// swaps of neighbours), if it is close enough to be a slip: at most a third of its length
    /// (at least 1, at most 3) away. Ties go to the earlier candidate.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let limit = max(1, min(3, word.count / 3))
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(word, candidate)
            if distance <= limit && distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Optimal string alignment distance between two strings, on Unicode scalars.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { table[i][0] = i }
        for j in 0...y.count { table[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { value = min(value, table[i - 2][j - 2] + 1) }
                table[i][j] = value
            }
        }
        return table[x.count][y.count]
    }

    /// The unknown subcommand's message, naming the nearest one.
    public static func unknownCommandMessage(_ command: String, known: [String]) -> String {
        var message = "unknown command \"\(command)\""
        if let near = nearest(to: command, among: known) { message += "; did you mean \(near)?" }
        return message + " (hostshell help lists them)"
    }

    /// The ports a server can listen on and a client can reach: 1 to 65535 (0 means "any free
    /// port" to the system, never a port to contact or save).
    public static let ports: ClosedRange<Int> = 1...65535

    /// A port number written on the command line, or nil when it is not one of `ports`.
    public static func port(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 5, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let value = Int(text), ports.contains(value) else { return nil }
        return value
    }

    /// A number of seconds written on the command line, or nil when it is not a finite number
    /// in `range` (`inf`, `nan`, `0x…`, signs and exponents beyond the range are refused).
    public static func seconds(_ text: String, in range: ClosedRange<Double>) -> Double? {
        guard let value = Double(text), value.isFinite, range.contains(value) else { return nil }
        guard text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: ".") }) else { return nil }
        return value
    }

    /// The top-level help: every command's usage lines and summary, then the global options.
    public static func topLevelHelp(_ specs: [CommandSpec]) -> String {
        var lines = ["Usage: hostshell COMMAND [ARGS…]", "       hostshell --version | --help", "", "Commands:"]
        for spec in specs {
            for usage in spec.usage { lines.append("  " + usage) }
            for line in spec.summary.split(separator: "\n", omittingEmptySubsequences: false) { lines.append("        " + line) }
        }
        lines += ["", "hostshell COMMAND --help lists every option a command takes.",
                  "Exit status: 0 success, 1 failures found, 2 bad arguments or input."]
        return lines.joined(separator: "\n")
    }
}

/// HostShell's version, as `--version` and the About window show it.
public enum HostShellVersion {
    public static let current = "0.16.0"
}
