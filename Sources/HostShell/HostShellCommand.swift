import CapacitorContract
import CapacitorShell
import DevFixtures
import Glibc
import HostCore
import Push
import PushShell
import ShellKit
import StudioContract
import StudioShell

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
                printOut("hostshell \(HostShellVersion.current)\nLicensed under the Apache License, Version 2.0 (see LICENSE).")
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
                // The simulator's commands carry simctl's own options (status_bar override --time …).
                let simulator = command == "device" && rest.first != "hermes"
                if !simulator, let problem = CommandLineRules.unknownOption(in: rest, of: spec) { throw UsageError(problem) }
            }
            switch command {
            case "contract": return try ContractCommand.run(rest)
            case "bench": return try BenchCommand.run(rest)
            case "probe": return try ProbeCommand.run(rest)
            case "server": return try ServerCommand.run(rest)
            case "open": return try OpenCommand.run(rest)
            case "capacitor": return try CapacitorCommand.run(rest, plugins: .withHomeSec)
            case "serve": return try ServeCommand.run(rest)
            case "demo": return try DemoCommand.run(rest)
            case "apns": return try APNsCommand.run(rest)
            case "hermes-gateway": return try HermesGatewayCommand.run(rest)
            case "hermes-server": return try HermesServerCommand.run(rest)
            case "device" where rest.first == "hermes": return try HermesDeviceCommand.run(rest)
            case "device": return try SimctlCommand.run(rest)
            case "ctl": return try CtlCommand.run(rest)
            case "devices": return try DevicesCommand.run(rest)
            case "replay": return try ReplayCommand.run(rest)
            case "kiosk": return try KioskCommand.run(rest)
            case "open-url": return try OpenURLCommand.run(rest)
            case "push": return try PushCommand.run(rest)
            case "doctor": return try MainActor.assumeIsolated { () throws(UsageError) -> Int32 in try DoctorCommand.run(rest) }
            case "help" where rest.count == 1 && CommandCatalog.spec(rest[0]) != nil:
                printOut(CommandCatalog.spec(rest[0])!.helpText)
                return ExitCode.success
            case "help" where !rest.isEmpty:
                throw UsageError(CommandLineRules.unknownCommandMessage(rest.joined(separator: " "), known: CommandCatalog.all.map(\.name)))
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
