import HostCore

/// A link for an app already running, handed over its instance socket.
package enum LinkHandoff {
    /// Hands `url` to the running app listening on `socket`; the exit status, its answer printed.
    package static func hand(_ url: String, to socket: UnixSocket) throws(UsageError) -> Int32 {
        try socket.send(JSONWriter.string(["command": "open-url", "url": .string(url)]))
        let line = try socket.receiveLine(timeout: ControlRequest.answerMargin)
        let object = (try? JSONParser.parse(line))?.objectValue
        if object?["ok"]?.boolValue == true {
            printOut(object?["result"]?.objectValue?["message"]?.stringValue ?? "Opened.")
            return ExitCode.success
        }
        printError("hostshell: \(object?["error"]?.stringValue ?? "the running app did not open the link")")
        return ExitCode.failure
    }
}
