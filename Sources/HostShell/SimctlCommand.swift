import Glibc
import HostCore
import ShellKit

/// `hostshell device [--socket S | SOCKET] SIMCTL-WORDS…`: Xcode's `xcrun simctl` commands for a
/// running app (started with `--control SOCKET`), each sent as the `ctl` command that does the
/// same (`SimctlMapping`). `device hermes …` is Hermes' device (`HermesDeviceCommand`).
enum SimctlCommand {
    static var usage: String {
        """
        usage: hostshell device [--socket] SOCKET SIMCTL-COMMAND [ARGS…]
               hostshell device hermes …   (Hermes' phone without a page: device hermes --help)
        Runs one of Xcode's simctl commands on the app serving its control interface on SOCKET
        (open or capacitor started with --control SOCKET), as the ctl command beside it:
        \(SimctlMapping.helpTable)
        pbcopy reads the text from standard input; pbpaste prints it. io recordVideo records until
        interrupted (Ctrl-C, SIGINT or SIGTERM), then finishes the file, as simctl does.
        """
    }

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var words = arguments
        guard !words.isEmpty else { throw UsageError("name the app's control socket and a simulator command\n\(usage)") }
        if CommandLineRules.asksForHelp(Array(words.prefix(1))) {
            printOut(usage)
            return ExitCode.success
        }
        if words.first == "--socket" { words.removeFirst() }
        guard let socket = words.first, !socket.hasPrefix("-") else {
            throw UsageError("name the app's control socket first (the --control SOCKET it was started with)\n\(usage)")
        }
        words.removeFirst()
        var mapped: SimctlMapping.Mapped
        switch SimctlMapping.map(words) {
        case .success(let found): mapped = found
        case .failure(let error): throw UsageError(error.message)
        }
        if mapped.readsStandardInput {
            var text = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(0, &buffer, buffer.count)
                if count <= 0 { break }
                text += buffer[0..<count]
            }
            mapped.ctl.append(String(decoding: text, as: UTF8.self))
        }
        guard let stop = mapped.untilInterrupted else {
            return try send(socket, mapped.ctl, printsText: mapped.printsText)
        }
        // simctl io recordVideo: record until interrupted, then finish the file.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM] { sigaddset(&signals, signal) }
        sigprocmask(SIG_BLOCK, &signals, nil)
        let started = try send(socket, mapped.ctl, printsText: false)
        guard started == ExitCode.success else { return started }
        printError("hostshell device: recording; press Ctrl-C to stop")
        var caught: Int32 = 0
        sigwait(&signals, &caught)
        return try send(socket, stop, printsText: false)
    }

    /// One ctl request; its result printed (as text for pbpaste).
    private static func send(_ socket: String, _ ctl: [String], printsText: Bool) throws(UsageError) -> Int32 {
        let line: String
        do throws(ControlError) {
            line = try ControlRequest.line(fromArguments: ctl, vocabularies: CtlCommand.vocabularies, workingDirectory: FileReading.workingDirectory)
        } catch { throw UsageError("\(error.message) (sent as: hostshell ctl SOCKET \(ctl.joined(separator: " ")))") }
        guard let result = try CtlCommand.ask(socket: socket, line: line, tool: "device") else { return ExitCode.failure }
        if printsText, let text = result.objectValue?["text"]?.stringValue ?? result.stringValue {
            printOut(text)
        } else {
            printJSON(JSONWriter.string(result))
        }
        return ExitCode.success
    }
}
