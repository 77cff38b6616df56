import BridgeRuntime
import Glibc

/// Exit codes shared by every subcommand.
enum ExitCode {
    static let success: Int32 = 0
    /// The command ran and found failures (a failing case, a step that did not do what it should).
    static let failure: Int32 = 1
    /// Bad input: unknown command, bad arguments, a file that is not what it should be.
    static let usage: Int32 = 2
}

/// A mistake in how the command was called or in what it was given; printed as one clear line.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// `hostshell COMMAND …`: the dispatcher. Each command lives in its own file.
enum HostShellCommand {
    /// Every command's usage and summary, from `CommandCatalog`.
    static var usage: String { CommandLineRules.topLevelHelp(CommandCatalog.all) }

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            printError(usage)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            if command == "--version" || command == "version" {
                guard rest.isEmpty else { throw UsageError("--version takes no arguments") }
                printOut("hostshell \(HostShellVersion.current)")
                return ExitCode.success
            }
            if let spec = CommandCatalog.spec(command) {
                // A command with a help of its own prints it (doctor, capacitor; serve --homesec; demo --capacitor).
                let ownHelp = command == "doctor" || command == "capacitor" || (command == "serve" && rest.contains("--homesec"))
                    || (command == "demo" && rest.contains("--capacitor")) || command == "apns" || command == "hermes-gateway"
                    || command == "hermes-server" || command == "device" || command == "push"
                if command != "help" && !ownHelp && CommandLineRules.asksForHelp(rest) {
                    printOut(spec.helpText)
                    return ExitCode.success
                }
                if let problem = CommandLineRules.unknownOption(in: rest, of: spec) { throw UsageError(problem) }
            }
            switch command {
            case "contract": return try ContractCommand.run(rest)
            case "bench": return try BenchCommand.run(rest)
            case "probe": return try ProbeCommand.run(rest)
            case "server": return try ServerCommand.run(rest)
            case "open": return try OpenCommand.run(rest)
            case "capacitor": return try CapacitorCommand.run(rest)
            case "serve": return try ServeCommand.run(rest)
            case "demo": return try DemoCommand.run(rest)
            case "apns": return try APNsCommand.run(rest)
            case "hermes-gateway": return try HermesGatewayCommand.run(rest)
            case "hermes-server": return try HermesServerCommand.run(rest)
            case "device": return try HermesDeviceCommand.run(rest)
            case "ctl": return try CtlCommand.run(rest)
            case "replay": return try ReplayCommand.run(rest)
            case "kiosk": return try KioskCommand.run(rest)
            case "open-url": return try OpenURLCommand.run(rest)
            case "push": return try PushCommand.run(rest)
            case "doctor": return try MainActor.assumeIsolated { () throws(UsageError) -> Int32 in try DoctorCommand.run(rest) }
            case "help" where rest.count == 1 && CommandCatalog.spec(rest[0]) != nil:
                printOut(CommandCatalog.spec(rest[0])!.helpText)
                return ExitCode.success
            case "help", "--help", "-h":
                printOut(usage)
                return ExitCode.success
            default:
                throw UsageError(CommandLineRules.unknownCommandMessage(command, known: CommandCatalog.all.map(\.name) + ["--version"]))
            }
        } catch let error as UsageError {
            printError("hostshell: \(error.message)")
            return ExitCode.usage
        } catch {
            printError("hostshell: \(error)")
            return ExitCode.failure
        }
    }
}
