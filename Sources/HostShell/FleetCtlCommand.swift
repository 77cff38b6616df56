import HostCore

/// `hostshell fleet-ctl SOCKET COMMAND…`: one request to a fleet (`open [--throw-away] -- KIND
/// ARGS…`, `close ID`, `list`, or one JSON request). Prints the answer as JSON; exit 0 when the
/// fleet did it, 1 when it refused (the reason on stderr), 2 for bad arguments or no fleet.
enum FleetCtlCommand {
    static let usage = """
        usage: hostshell fleet-ctl SOCKET open [--throw-away] -- open|capacitor ARGS…
               hostshell fleet-ctl SOCKET close ID
               hostshell fleet-ctl SOCKET list
        """

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count >= 2 else { throw UsageError(usage) }
        let line: String
        do throws(ControlError) { line = try FleetCommand.line(fromArguments: Array(arguments.dropFirst())) } catch {
            throw UsageError("\(error.message)\n\(usage)")
        }
        guard let result = try CtlCommand.ask(socket: arguments[0], line: line, tool: "fleet-ctl") else { return ExitCode.failure }
        printJSON(JSONWriter.string(result))
        return ExitCode.success
    }
}
