import Foundation
import Testing

/// The command line's conventions, checked against the built binary and against the source of
/// its dispatcher: every subcommand the dispatcher runs — including ones added later — is in the
/// top-level help and has a `--help` that lists every option its command file handles.
@Suite("hostshell command-line conventions")
struct CommandLineConventionsTests {
    static let sources = HostShellBinary.root.appendingPathComponent("Sources")

    /// The subcommands the dispatcher runs, and the type each hands its arguments to, read from
    /// `case "NAME": return try … TYPE.run(` in its switch.
    static func dispatchedCommands() throws -> [(name: String, type: String)] {
        let text = try String(contentsOf: sources.appendingPathComponent("HostShell/HostShellCommand.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"case "([a-z][a-z-]*)":[^\n]*?(\w+Command)\.run\("#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (String(text[Range(match.range(at: 1), in: text)!]), String(text[Range(match.range(at: 2), in: text)!]))
        }
    }

    /// Every `"--option"` literal in the file that declares `type`, and in the command types it
    /// hands its arguments on to for a variant (`serve --homesec`, `demo --capacitor`).
    static func optionLiterals(of type: String, seen: inout Set<String>) throws -> Set<String> {
        guard seen.insert(type).inserted else { return [] }
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        guard let file = try files.first(where: { try String(contentsOf: $0, encoding: .utf8).contains("enum \(type) {") }) else {
            Issue.record("no source declares enum \(type)")
            return []
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        let literal = try NSRegularExpression(pattern: #"case "(--[a-z][a-z-]*)""#)
        var options = Set(literal.matches(in: text, range: NSRange(text.startIndex..., in: text))
            .map { String(text[Range($0.range(at: 1), in: text)!]) })
        let handsOn = try NSRegularExpression(pattern: #"(\w+(?:Serve|Demo)Command)\.run\("#)
        for match in handsOn.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            options.formUnion(try optionLiterals(of: String(text[Range(match.range(at: 1), in: text)!]), seen: &seen))
        }
        return options.subtracting(["--help"])
    }

    @Test("--version prints the version; help lists every subcommand the dispatcher runs")
    func versionAndTopLevelHelp() throws {
        let version = try HostShellBinary.run(["--version"])
        #expect(version.status == 0 && version.stdout.range(of: #"^hostshell \d+\.\d+\.\d+\nLicensed under the Apache License, Version 2\.0 \(see LICENSE\)\.\n$"#, options: .regularExpression) != nil, "\(version.stdout)")
        let licence = try String(contentsOf: HostShellBinary.root.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
        let commands = try Self.dispatchedCommands()
        #expect(commands.count >= 12, "the dispatcher's commands were not found: \(commands)")
        let help = try HostShellBinary.run(["help"])
        #expect(help.status == 0)
        for command in commands {
            #expect(help.stdout.contains("\n  \(command.name) ") || help.stdout.contains("\n  \(command.name)\n"), "hostshell help does not list \(command.name)")
        }
        #expect(try HostShellBinary.run(["--help"]).stdout == help.stdout)
    }

    @Test("every subcommand's --help exits 0 and lists every option its command handles")
    func everyCommandsHelp() throws {
        for command in try Self.dispatchedCommands() {
            var seen = Set<String>()
            let options = try Self.optionLiterals(of: command.type, seen: &seen)
            let help = try HostShellBinary.run([command.name, "--help"])
            #expect(help.status == 0, "hostshell \(command.name) --help exited \(help.status): \(help.stderr)")
            for option in options.sorted() {
                #expect(help.stdout.contains(option), "hostshell \(command.name) --help does not list \(option)")
            }
        }
    }

    @Test("a misspelt option is named with the nearest one, and nothing runs")
    func misspeltOptions() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let cases: [([String], String)] = [
            (["open", "--devcie", "phone"], "did you mean --device?"),
            (["server", "list", "--jsno"], "did you mean --json?"),
            (["kiosk", "--crome"], "did you mean --chrome?"),
            (["demo", "--headles"], "did you mean --headless?"),
            (["serve", "--referense"], "did you mean --reference?"),
            (["doctor", "--jsn"], "--jsn"),
            (["ctl", "none.sock", "wait", "screen=page", "--timout", "5"], "did you mean --timeout?"),
            (["opne"], "did you mean open?"),
        ]
        for (arguments, words) in cases {
            let run = try HostShellBinary.run(arguments, environment: home.environment)
            let bad = arguments.first(where: { $0.hasPrefix("--") }) ?? arguments[0]
            #expect(run.status == 2 && run.stderr.contains(words) && run.stderr.contains(bad), "\(arguments): \(run.status) \(run.stderr)")
        }
    }

    @Test("port 0 and other impossible values are refused with what is possible")
    func impossibleValues() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let cases: [([String], String)] = [
            (["serve", "--reference", "--port", "0"], "1 to 65535"),
            (["serve", "--homesec", "--port", "65536"], "1 to 65535"),
            (["open", "--check", "--timeout", "0"], "--timeout"),
            (["open", "--check", "--timeout", "inf"], "--timeout"),
            (["demo", "--step-timeout", "nan"], "--step-timeout"),
            (["kiosk", "--cursor-timeout", "-1"], "--cursor-timeout"),
        ]
        for (arguments, words) in cases {
            let run = try HostShellBinary.run(arguments, environment: home.environment)
            #expect(run.status == 2 && run.stderr.contains(words), "\(arguments): \(run.status) \(run.stderr)")
        }
        let portZero = try HostShellBinary.run(["server", "add", "http://127.0.0.1:0", "--allow-http"], environment: home.environment)
        #expect(portZero.status == 2 && portZero.stderr.contains("port 0"), "\(portZero.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.store.path), "nothing was saved")
    }

    @Test("the same installation saved under a second address is caught, and the first stays")
    func sameInstallationTwice() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let other = server.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let again = try HostShellBinary.run(["server", "add", other, "--allow-http", "--name", "Twice"], environment: home.environment)
        #expect(again.status == 1 && again.stderr.contains("same installation") && again.stderr.contains("reference-studio"), "\(again.stderr)")
        let listed = try HostShellBinary.run(["server", "list", "--json"], environment: home.environment)
        let saved = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(saved.count == 1 && saved.first?["address"] as? String == server.url, "\(listed.stdout)")
    }
}
