import Foundation
import Testing

@Suite("Capacitor demo tour (real WebKit)", .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"))
struct CapacitorDemoTests {
    @Test("demo --capacitor tours the reference app against serve --homesec: setup, registration, background and back, a link, a notification, settings; a PNG per step and state.json")
    func tour() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-capdemo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        // On an X server of its own: its menus grab the pointer, which another suite's menus on the
        // shared display would take down ("GTK took it down at once").
        let run = try HostShellBinary.run(["demo", "--capacitor", "--headless", "--out", out.path, "--step-timeout", "60"], environment: HostShellBinary.ownDisplay)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)\n\((try? String(contentsOf: out.appendingPathComponent("app.log"), encoding: .utf8)) ?? "")")
        #expect(run.stdout.contains("Capacitor demo tour passed."))
        let state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("state.json"))) as? [String: Any])
        #expect(state["tour"] as? Bool == true)
        let tour = try #require(state["capacitor"] as? [String: Any])
        let steps = try #require(tour["steps"] as? [[String: Any]])
        #expect(steps.map { $0["name"] as? String } == ["native-setup", "plain-http-refused", "token-rejected", "connected", "registered",
                                                       "background", "foreground", "link", "notification", "settings"])
        let page = try #require(tour["page"] as? [String: Any])
        #expect((page["registration"] as? [String: Any])?["status"] as? String == "registered")
        #expect((page["lifecycle"] as? [String])?.suffix(4) == ["appStateChange:false", "pause", "resume", "appStateChange:true"], "\(page["lifecycle"] ?? "")")
        for step in steps {
            #expect(step["ok"] as? Bool == true, "\(step)")
            guard step["name"] as? String != "background" else { continue }  // the window may be hidden then; the step says so
            let file = try #require(step["screenshot"] as? String, "\(step)")
            let png = try Data(contentsOf: out.appendingPathComponent(file))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(file) is a PNG")
        }
    }

    @Test("demo --capacitor --help lists every flag; a bad one is refused with one line")
    func arguments() throws {
        let help = try HostShellBinary.run(["demo", "--capacitor", "--help"])
        #expect(help.status == 0)
        for flag in ["--headless", "--out", "--step-timeout"] { #expect(help.stdout.contains(flag)) }
        let bad = try HostShellBinary.run(["demo", "--capacitor", "--frobnicate"])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("hostshell: ") && bad.stderr.contains("--help"), "\(bad.stderr)")
    }
}
