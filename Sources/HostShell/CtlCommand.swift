import Glibc
import HostCore
import Push
import ShellKit
import StudioContract

/// `hostshell ctl SOCKET COMMAND [ARGS…]`: one request to a running app's control interface
/// (`open --control SOCKET`). Prints the result as JSON; exit 0 when the app did it, 1 when it
/// answered with an error (printed on stderr), 2 for bad arguments or no app at SOCKET.
enum CtlCommand {
    /// Every app contract's own commands, registered here: the executable is the one place
    /// that knows them all.
    static var vocabularies: [any ControlVocabulary.Type] { [StudioControl.self, PushControl.self, HermesControl.self] }

    /// The commands, the core's and then each app's, one per line.
    static var usage: String {
        func lines(_ title: String, _ commands: [ControlCommandHelp]) -> String {
            "  \(title):\n" + commands.map { "    " + $0.synopsis }.joined(separator: "\n")
        }
        return (["usage: hostshell ctl SOCKET COMMAND [ARGS…]   (or one JSON request: '{\"command\": …}')",
                 lines("every app", ControlRequest.coreCommands)]
            + vocabularies.map { lines($0.title, $0.commands) }).joined(separator: "\n")
    }

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        if arguments.count == 1, CommandLineRules.asksForHelp(arguments) {
            printOut(CommandCatalog.spec("ctl")!.helpText + "\n\n" + usage)
            return ExitCode.success
        }
        guard arguments.count >= 2 else { throw UsageError(usage) }
        if arguments[1] == "events" { return try events(socketPath: arguments[0], Array(arguments.dropFirst(2))) }
        // `wait` prints what it waited for; `--state` prints the whole state it found.
        var words = Array(arguments.dropFirst())
        let wholeState = words.first == "wait" && words.contains("--state")
        if wholeState { words.removeAll { $0 == "--state" } }
        let line: String
        do throws(ControlError) { line = try ControlRequest.line(fromArguments: words, vocabularies: vocabularies,
                                                                  workingDirectory: FileReading.workingDirectory) } catch {
            throw UsageError("\(error.message)\n\(usage)")
        }
        guard let result = try ask(socket: arguments[0], line: line, tool: "ctl") else { return ExitCode.failure }
        if words.first == "wait", !wholeState, case .wait(let until, _)? = (try? ControlRequest.decode(line).get())?.command {
            var met = JSONObject()
            for path in until.conditions.keys { met[path] = StatePredicate.value(at: path, in: result) }
            printJSON(JSONWriter.string(.object(met)))
        } else {
            printJSON(JSONWriter.string(result))
        }
        return ExitCode.success
    }

    /// Sends one request line to the app on `socket` and waits for its answer, as long as the
    /// request may take plus a margin for a busy app: the result, or nil once what went wrong
    /// was said on standard error (as `hostshell TOOL: …`).
    static func ask(socket: String, line: String, tool: String) throws(UsageError) -> JSONValue? {
        let connection = try UnixSocket(connectingTo: socket)
        try connection.send(line)
        let answer = try connection.receiveLine(timeout: ControlRequest.answerTimeout(forLine: line))
        guard let object = (try? JSONParser.parse(answer))?.objectValue, let ok = object["ok"]?.boolValue else {
            printError("hostshell \(tool): the app answered something that is not a control response: \(answer.prefix(200))")
            return nil
        }
        guard ok else {
            printError("hostshell \(tool): \(object["error"]?.stringValue ?? "the app refused the request")")
            return nil
        }
        return object["result"] ?? .null
    }

    /// `events`: says "hostshell ctl: streaming …" on stderr once the app streams, then prints
    /// each event line as it comes, until `--count` events arrived (exit 0), `--timeout` passed
    /// (exit 0 without a count, 1 short of it), or the app went away.
    private static func events(socketPath: String, _ arguments: [String]) throws(UsageError) -> Int32 {
        var count: Int?
        var timeout: Double?
        var request: [String] = ["events"]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--count":
                guard let value = rest.popFirst().flatMap(Int.init), value > 0 else { throw UsageError("--count takes a positive number of events") }
                count = value
            case "--timeout":
                guard let value = rest.popFirst().flatMap(Double.init), value > 0 else { throw UsageError("--timeout takes a number of seconds") }
                timeout = value
            case "--kind":
                guard let value = rest.popFirst(), ControlCommand.eventKinds.contains(value) else {
                    throw UsageError("--kind takes \(ControlCommand.eventKinds.joined(separator: " or "))")
                }
                request += ["--kind", value]
            default:
                throw UsageError(CommandLineRules.unknownOptionMessage(argument, command: "ctl events", known: ["--kind", "--count", "--timeout"], help: "hostshell ctl --help"))
            }
        }
        let line: String
        do throws(ControlError) { line = try ControlRequest.line(fromArguments: request) } catch { throw UsageError(error.message) }
        let socket = try UnixSocket(connectingTo: socketPath)
        try socket.send(line)
        let answer = try socket.receiveLine(timeout: ControlRequest.answerMargin)
        guard let object = (try? JSONParser.parse(answer))?.objectValue, object["ok"]?.boolValue == true else {
            printError("hostshell ctl: \((try? JSONParser.parse(answer))?.objectValue?["error"]?.stringValue ?? "the app did not start the stream")")
            return ExitCode.failure
        }
        // Said once the app streams, so a script can act only then (nothing before is missed).
        let kinds = object["result"]?.objectValue?["streaming"]?.arrayValue?.compactMap(\.stringValue) ?? []
        printError("hostshell ctl: streaming \(kinds.joined(separator: ", ")) events")
        let deadline = timeout.map { monotonicSeconds() + $0 }
        var seen = 0
        while count.map({ seen < $0 }) ?? true {
            let remaining = deadline.map { $0 - monotonicSeconds() } ?? 86_400 * 365
            guard remaining > 0 else { break }
            let event: String
            do throws(UsageError) { event = try socket.receiveLine(timeout: remaining) } catch {
                if deadline != nil && monotonicSeconds() >= deadline! { break }
                printError("hostshell ctl: the app closed the event stream")
                return count == nil ? ExitCode.success : ExitCode.failure
            }
            printJSON(event)
            fflush(nil)  // each event as it comes, also into a pipe
            seen += 1
        }
        if let count, seen < count {
            printError("hostshell ctl: \(seen) of \(count) events before the timeout")
            return ExitCode.failure
        }
        return ExitCode.success
    }
}
