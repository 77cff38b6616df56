import HostCore

/// `hostshell devices [--json]`: the devices `--device` can name (`DeviceListing`).
enum DevicesCommand {
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        switch arguments {
        case []: printOut(DeviceListing.table())
        case ["--json"]: printOut(JSONWriter.string(DeviceListing.json()))
        case ["--help"], ["-h"]: printOut(DeviceListing.usage)
        default: throw UsageError("devices takes --json or --help, not \(TerminalText.escaped(arguments.joined(separator: " ")))")
        }
        return ExitCode.success
    }
}
