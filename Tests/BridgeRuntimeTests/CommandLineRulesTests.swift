import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Command-line conventions: options named, slips suggested, impossible values refused")
struct CommandLineRulesTests {
    static let open = CommandSpec("open", usage: ["open [SERVER-ID]"], summary: "Open.", options: [
        OptionSpec("--device", value: "D", "device"), OptionSpec("--check", "check"), OptionSpec("--timeout", value: "S", "wait"),
    ])

    @Test("a misspelt option is named with the nearest one; an unknown one is named alone")
    func unknownOptions() {
        let slip = CommandLineRules.unknownOption(in: ["north", "--devcie", "phone"], of: Self.open)
        #expect(slip == #"unknown option "--devcie" for open; did you mean --device? (hostshell open --help lists what it takes)"#)
        #expect(CommandLineRules.unknownOption(in: ["--chek"], of: Self.open)?.contains("did you mean --check?") == true)
        let far = CommandLineRules.unknownOption(in: ["--frobnicate"], of: Self.open)
        #expect(far?.hasPrefix(#"unknown option "--frobnicate" for open ("#) == true, "\(far ?? "nil")")
        #expect(CommandLineRules.unknownOption(in: ["-x"], of: Self.open)?.contains("-x") == true)
        let equals = CommandLineRules.unknownOption(in: ["--device=phone"], of: Self.open)
        #expect(equals?.contains("write the value after a space: --device phone") == true, "\(equals ?? "nil")")
    }

    @Test("known options pass, and the value after an option is a value whatever it looks like")
    func knownOptions() {
        #expect(CommandLineRules.unknownOption(in: ["north", "--device", "phone", "--check"], of: Self.open) == nil)
        #expect(CommandLineRules.unknownOption(in: ["--timeout", "--weird"], of: Self.open) == nil)
        #expect(CommandLineRules.unknownOption(in: ["-", "-5", "-0.5"], of: Self.open) == nil, "stdin and negative numbers are not options")
        let free = CommandSpec("ctl", usage: ["ctl"], summary: "", options: [], checksOptions: false)
        #expect(CommandLineRules.unknownOption(in: ["eval", "--anything"], of: free) == nil)
        let none = CommandSpec("contract", usage: ["contract check FILE…"], summary: "", options: [])
        #expect(CommandLineRules.unknownOption(in: ["check", "--json"], of: none)?.contains("takes no options") == true)
    }

    @Test("the nearest word: within a third of its length, swaps count once, ties go first")
    func nearest() {
        #expect(CommandLineRules.editDistance("--device", "--devcie") == 1)
        #expect(CommandLineRules.editDistance("kitten", "sitting") == 3)
        #expect(CommandLineRules.nearest(to: "serever", among: ["serve", "server"]) == "server")
        #expect(CommandLineRules.nearest(to: "opne", among: ["open", "open-url"]) == "open")
        #expect(CommandLineRules.nearest(to: "zzz", among: ["open", "ctl"]) == nil)
        #expect(CommandLineRules.unknownCommandMessage("serer", known: ["server", "serve"]).contains("did you mean serve?") ||
                CommandLineRules.unknownCommandMessage("serer", known: ["server", "serve"]).contains("did you mean server?"))
    }

    @Test("ports run from 1 to 65535; 0, signs, spaces and overflow are refused")
    func ports() {
        #expect(CommandLineRules.port("1") == 1 && CommandLineRules.port("65535") == 65535 && CommandLineRules.port("8080") == 8080)
        for bad in ["0", "00000", "65536", "-1", "+80", " 80", "80 ", "", "1e3", "0x50", "999999", "８０"] {
            #expect(CommandLineRules.port(bad) == nil, "\(bad)")
        }
        #expect(CommandLineRules.seconds("1.5", in: 0.001...600) == 1.5)
        for bad in ["0", "inf", "nan", "-1", "601", "1e2", "0x10", ""] {
            #expect(CommandLineRules.seconds(bad, in: 0.001...600) == nil, "\(bad)")
        }
    }

    @Test("a command's help lists every option it takes, and --help; the top-level help every command")
    func helpTexts() {
        let help = Self.open.helpText
        for option in Self.open.options { #expect(help.contains(option.name), "\(option.name)") }
        #expect(help.hasPrefix("Usage: hostshell open [SERVER-ID]") && help.contains("--help"))
        let top = CommandLineRules.topLevelHelp([Self.open, CommandSpec("doctor", usage: ["doctor [--json]"], summary: "Report.", options: [])])
        #expect(top.contains("  open [SERVER-ID]") && top.contains("  doctor [--json]") && top.contains("--version"))
    }

    @Test("a server address with port 0 is refused: nothing listens there")
    func portZeroAddress() {
        guard case .failure(let problem) = ServerAddress.parse("http://127.0.0.1:0") else { Issue.record("port 0 was accepted"); return }
        #expect(problem.description.contains("port 0"))
        #expect(throws: Never.self) { try ServerAddress.parse("https://studio.example.org:8443").get() }
        #expect((try? ServerAddress.parse("https://studio.example.org:65536").get()) == nil)
    }

    @Test("the same installation under a second address is caught; another installation is not")
    func sameInstallationTwice() throws {
        let identity = ServerIdentity(installationId: "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e", organizationName: "North")
        let saved = ServerRecord(id: "north", name: "North", address: try ServerAddress.parse("https://north.example.org").get(), identity: identity)
        let other = try ServerAddress.parse("https://10.0.0.5").get()
        let conflict = ServerAddConflict.check(other, identity: identity, in: [saved])
        #expect(conflict == .sameInstallation(saved))
        let message = conflict?.message(adding: other) ?? ""
        #expect(message.contains("same installation") && message.contains("north") && message.contains("https://north.example.org")
                && message.contains("server remove north"), "\(message)")
        #expect(ServerAddConflict.check(saved.address, identity: identity, in: [saved]) == .sameAddress(saved))
        let fresh = ServerIdentity(installationId: "11111111-2222-4333-8444-555555555555", organizationName: "South")
        #expect(ServerAddConflict.check(other, identity: fresh, in: [saved]) == nil)
        #expect(ServerAddConflict.byAddress(other, in: [saved]) == nil)
    }

    @Test("ctl words: an option a word does not take is named with the nearest; unknown words get a suggestion")
    func ctlWords() {
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["wait", "screen=page", "--timout", "5"]) }
        do { _ = try ControlRequest.line(fromArguments: ["wait", "screen=page", "--timout", "5"]) } catch {
            #expect(error.message.contains("--timout") && error.message.contains("did you mean --timeout?"), "\(error.message)")
        }
        do { _ = try ControlRequest.line(fromArguments: ["snapshto", "shots/a.png"]) } catch {
            #expect(error.message.contains("did you mean snapshot?"), "\(error.message)")
        }
        #expect((try? ControlRequest.line(fromArguments: ["wait", "screen=page", "--timeout", "5"])) != nil)
        #expect((try? ControlRequest.line(fromArguments: ["eval", "-1"])) != nil)
    }
}
