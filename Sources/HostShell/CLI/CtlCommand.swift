import BridgeRuntime

/// `hostshell ctl SOCKET COMMAND [ARGS…]`: one request to a running app's control interface
/// (`open --control SOCKET`). Prints the result as JSON; exit 0 when the app did it, 1 when it
/// answered with an error (printed on stderr), 2 for bad arguments or no app at SOCKET.
enum CtlCommand {
    static let usage = """
        usage: hostshell ctl SOCKET COMMAND [ARGS…]
          state | tap DESTINATION | back | switch-server SERVER-ID | reload
          wait PATH=VALUE… [--timeout S] | snapshot FILE.png [--page] | eval SCRIPT | '{"command": …}'
        """

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count >= 2 else { throw UsageError(usage) }
        let line: String
        do throws(ControlError) { line = try ControlRequest.line(fromArguments: Array(arguments.dropFirst())) } catch {
            throw UsageError("\(error.message)\n\(usage)")
        }
        // Wait as long as the request may take, plus a margin for a busy app.
        let waited = (try? JSONParser.parse(line).objectValue?["timeout"]?.numberValue) ?? nil
        let socket = try UnixSocket(connectingTo: arguments[0])
        try socket.send(line)
        let answer = try socket.receiveLine(timeout: (waited ?? 10) + 20)
        guard let object = (try? JSONParser.parse(answer))?.objectValue, let ok = object["ok"]?.boolValue else {
            printError("hostshell ctl: the app answered something that is not a control response: \(answer.prefix(200))")
            return ExitCode.failure
        }
        guard ok else {
            printError("hostshell ctl: \(object["error"]?.stringValue ?? "the app refused the request")")
            return ExitCode.failure
        }
        print(JSONWriter.string(object["result"] ?? .null))
        return ExitCode.success
    }
}
