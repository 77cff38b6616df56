import Foundation
import Testing

/// `hostshell replay` of a Capacitor app's bridge log: a short session of the reference app
/// (`fixtures/capacitor/homesec-reference`) recorded with `capacitor --bridge-log`, then made
/// again in a fresh run of the app and compared, answer by answer.
@Suite("Capacitor replay: a recorded session of the reference app made again (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct CapacitorReplayLiveTests {
    @Test("the recorded calls get the same answers again; a recorded answer that is not what the app answers now is a DIFF; Studio-only flags are refused")
    func replay() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let log = try home.file("capacitor-bridge.log")
        let reference = try ReferenceCapacitorApp(home: home, extra: ["--bridge-log", log.path])
        do {
            defer { reference.stop() }
            for (expression, ok) in [("referenceApp.plugins.HomeSecAuth.setServerBaseUrl({value: ' HTTP://127.0.0.1:9/ '})", true),
                                     ("referenceApp.plugins.HomeSecAuth.getServerBaseUrl()", true),
                                     ("referenceApp.plugins.HomeSecAuth.setAuthDisabledReady({value: true})", true),
                                     ("referenceApp.plugins.HomeSecAuth.getAuthDisabledReady()", true),
                                     ("referenceApp.plugins.HomeSecAuth.setServerBaseUrl({value: 'ftp://x'})", false),
                                     ("referenceApp.plugins.HomeSecDevice.getRegistrationInfo()", true),
                                     ("Capacitor.nativePromise('NoSuchPlugin', 'go', {})", false)] {
                #expect(try reference.run(expression)["ok"] as? Bool == ok, "\(expression)")
            }
        }
        let recorded = try String(contentsOf: log, encoding: .utf8)
        #expect(recorded.contains(#""contract":"capacitor""#) && recorded.contains("getRegistrationInfo"))

        // App.getState follows the window's focus, which other apps on the shared display may
        // have taken while the session was recorded; the replay's app is active throughout.
        let inactive = recorded.split(separator: "\n").filter { $0.contains(#""methodName":"getState""#) && $0.contains(#""isActive":false"#) }.count
        let same = try HostShellBinary.run(["replay", log.path, ReferenceCapacitorApp.project, "--app-id", reference.appId, "--verbose"],
                                           environment: home.environment)
        #expect(same.status == (inactive == 0 ? 0 : 1), "\(same.stdout)\n\(same.stderr)")
        // The app's boot (three getters, getLaunchUrl, its listeners, getState) and the seven calls above.
        let summary = same.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let counts = summary.split(separator: " ").compactMap { Int($0) }
        #expect(summary.contains(" replayed: ") && summary.contains(" \(inactive) differed") && counts.count >= 2 && counts[0] >= 13
                && counts[0] == counts[1] + inactive, "\(same.stdout)")
        #expect(same.stdout.split(separator: "\n").filter { $0.hasPrefix("DIFF") }.allSatisfy { $0.hasSuffix("App.getState") }, "\(same.stdout)")
        #expect(same.stdout.contains("same line") && same.stdout.contains("HomeSecAuth.getServerBaseUrl") && same.stdout.contains("App.addListener"))
        #expect(same.stderr.contains("owner-only file") && same.stderr.contains("throw-away profile"), "a replay keeps its entries in its own profile: \(same.stderr)")

        // A recorded answer that is not the app's: the rejection's wording changed in the log.
        let tampered = home.root.appendingPathComponent("tampered.log")
        let changed = recorded.replacingOccurrences(of: "Invalid HomeSec server URL: ftp://x", with: "Invalid URL")
        #expect(changed != recorded)
        try changed.write(to: tampered, atomically: true, encoding: .utf8)
        let differs = try HostShellBinary.run(["replay", tampered.path, ReferenceCapacitorApp.project, "--app-id", reference.appId],
                                              environment: home.environment)
        #expect(differs.status == 1, "\(differs.stdout)\n\(differs.stderr)")
        #expect(differs.stdout.contains("HomeSecAuth.setServerBaseUrl") && differs.stdout.contains("DIFF line")
                && differs.stdout.contains("Invalid HomeSec server URL: ftp://x") && differs.stdout.contains(" \(inactive + 1) differed"), "\(differs.stdout)")

        let refused = try HostShellBinary.run(["replay", log.path, "--no-prewarm"], environment: home.environment)
        #expect(refused.status == 2 && refused.stderr.contains("--no-prewarm"), "\(refused.stderr)")
        let studioFlag = try HostShellBinary.run(["replay", log.path, "--credential-store", "secret-service"], environment: home.environment)
        #expect(studioFlag.status == 2 && studioFlag.stderr.contains("Capacitor app's log does not take --credential-store"), "\(studioFlag.stderr)")
    }

    @Test("a permission question the recorded session answered gets the same answer in the replay, not a 10 s wait")
    func permissionAnswered() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let log = try home.file("capacitor-bridge.log")
        let reference = try ReferenceCapacitorApp(home: home, extra: ["--bridge-log", log.path])
        do {
            defer { reference.stop() }
            let ask = "referenceApp.run('perm', () => Capacitor.nativePromise('PushNotifications', 'requestPermissions', {}))"
            #expect(try reference.app.ctl("eval", ask).status == 0)
            _ = try reference.app.state(#"permissions.pending.kinds=["notifications"]"#)
            #expect(try reference.app.ctl("permission", "grant").status == 0)
            _ = try reference.page("referenceApp.state.results['perm'] && !referenceApp.state.results['perm'].pending")
        }
        let recorded = try String(contentsOf: log, encoding: .utf8)
        #expect(recorded.contains(#""dir":"permission""#) && recorded.contains(#""granted":true"#), "the answer is logged")
        let inactive = recorded.split(separator: "\n").filter { $0.contains(#""methodName":"getState""#) && $0.contains(#""isActive":false"#) }.count

        func replay(_ text: String) throws -> HostShellBinary.Run {
            let file = home.root.appendingPathComponent("replayed-\(UUID().uuidString.prefix(6)).log")
            try text.write(to: file, atomically: true, encoding: .utf8)
            return try HostShellBinary.run(["replay", file.path, ReferenceCapacitorApp.project, "--app-id", reference.appId, "--verbose"],
                                           environment: home.environment)
        }
        let same = try replay(recorded)
        #expect(same.status == (inactive == 0 ? 0 : 1), "\(same.stdout)\n\(same.stderr)")
        #expect(same.stdout.contains("answered notifications: granted, as recorded"), "\(same.stdout)")
        #expect(same.stdout.split(separator: "\n").contains { $0.hasPrefix("same line") && $0.hasSuffix("PushNotifications.requestPermissions") }, "\(same.stdout)")
        #expect(same.stdout.split(separator: "\n").filter { $0.hasPrefix("DIFF") }.allSatisfy { $0.hasSuffix("App.getState") }, "\(same.stdout)")

        // The log says denied: the replay denies, so the app's answer is not the recorded one.
        let denied = recorded.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains(#""dir":"permission""#) ? line.replacingOccurrences(of: #""granted":true"#, with: #""granted":false"#) : String(line)
        }.joined(separator: "\n")
        let differs = try replay(denied)
        #expect(differs.status == 1 && differs.stdout.contains("answered notifications: denied, as recorded"), "\(differs.stdout)")
        #expect(differs.stdout.contains("PushNotifications.requestPermissions") && differs.stdout.contains("denied"), "\(differs.stdout)")

        // A log without the answer (an older HostShell's): the replay says why the call waits.
        let unanswered = recorded.split(separator: "\n").filter { !$0.contains(#""dir":"permission""#) }.joined(separator: "\n") + "\n"
        let waits = try replay(unanswered)
        #expect(waits.status == 1 && waits.stdout.contains("which the log records no answer for"), "\(waits.stdout)")
    }
}

