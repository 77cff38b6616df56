import Foundation
import Testing

/// The Hermes loop with real processes: the Hermes-like server's plugin → the Hermes gateway →
/// the APNs stand-in, and the emulated phone driven through its control socket.
@Suite("Hermes loop: hermes-server, hermes-gateway, apns serve and device hermes", .serialized)
final class HermesLoopTests {
    static let pruned = String(repeating: "2b", count: 32)
    let home = TemporaryHome()
    let socket = FileManager.default.temporaryDirectory.appendingPathComponent("hs-hermes-\(UUID().uuidString.prefix(8)).sock").path

    deinit { home.remove() }

    @discardableResult
    func ctl(_ arguments: String...) throws -> (status: Int32, result: [String: Any], error: String) {
        // A wait's whole state, for the tests that read more than what they waited for.
        let run = try HostShellBinary.run(["ctl", socket] + arguments + (arguments.first == "wait" ? ["--state"] : []), environment: home.environment)
        let result = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        return (run.status, result, run.stderr)
    }

    func hermes(_ state: [String: Any]) -> [String: Any] { state["hermes"] as? [String: Any] ?? [:] }

    func device(_ server: String, _ extra: [String] = []) throws -> ServingProcess {
        try ServingProcess(["device", "hermes", "--server", server, "--session-token", "T", "--control", socket] + extra,
                           environment: home.environment)
    }

    static func call(_ url: String, method: String = "POST", _ body: [String: Any]? = nil) throws -> CurlAnswer {
        let text = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        return try Curl.send(url, mode: [], method: method, headers: [("Content-Type", "application/json"), ("X-Hermes-Session-Token", "T")], body: text)
    }

    static func lastSend(_ server: String) throws -> [String: Any] {
        try #require((try call(server + "/__test/log", method: "GET").json?["sends"] as? [[String: Any]])?.last)
    }

    @Test("register after a grant, the test send delivered through the gateway, a gone token pruned, a stale capability registered again, sign-out unregisters")
    func loop() throws {
        let keys = try APNsKeys()
        let publicKey = try keys.make("HKEY")
        let record = keys.path("record.jsonl")
        let standIn = try APNsProcess(["--team", "TEAMH", "--key", "HKEY=" + publicKey, "--record", record,
                                       "--fault", Self.pruned + "=Unregistered", "--token-update-interval", "0"],
                                      environment: home.environment)  // the device's phone directory is the home's
        defer { standIn.stop() }
        let sandbox = try #require(standIn.ports["sandbox"])
        func gateway(_ secret: String, port: String? = nil) throws -> ServingProcess {
            try ServingProcess(["hermes-gateway", "serve", "--secret", secret, "--team", "TEAMH", "--key-id", "HKEY", "--key-file", keys.path("HKEY.key"),
                                "--topic", "com.example.hermes", "--apns-sandbox", "http://127.0.0.1:\(sandbox)"] + (port.map { ["--port", $0] } ?? []))
        }
        var gatewayProcess = try gateway("first-secret")
        let gatewayURL = gatewayProcess.url
        let server = try ServingProcess(["hermes-server", "serve", "--session-token", "T", "--gateway", gatewayURL])
        defer { server.stop() }
        let phone = try device(server.url)
        defer { phone.stop() }

        // Ready → the permission prompt; a grant → a token → registered with the server.
        #expect(try ctl("wait", "hermes.prompt=permission", "hermes.readiness=ready").status == 0)
        #expect(try ctl("permission", "grant").status == 0)
        let registered = try ctl("wait", "hermes.registration.state=registered")
        #expect(registered.status == 0, "\(registered.error)")
        let token = try #require(hermes(registered.result)["token"] as? String)
        #expect(token.count == 64 && token == token.lowercased())
        let profile = home.root.appendingPathComponent("data/hostshell/devices/hermes")
        #expect(FileManager.default.fileExists(atPath: profile.appendingPathComponent("hermes.json").path))
        #expect(try String(contentsOf: profile.appendingPathComponent("push.json"), encoding: .utf8).contains(token))

        // A second device whose token APNs reports gone.
        #expect(try Self.call(server.url + "/api/plugins/hermes-push/register",
                              ["device_token": Self.pruned, "apns_env": "sandbox", "app_version": "1.0"]).status == 200)
        // "Send test notification": sent; the phone's push reached the stand-in, the gone one is pruned.
        #expect(try ctl("hermes", "test").status == 0)
        #expect(try ctl("wait", "hermes.test.state=sent").status == 0)
        let test = try Self.lastSend(server.url)
        let results = try #require(test["results"] as? [[String: Any]])
        #expect(results.count == 2 && results[0]["delivered"] as? Bool == true && results[1]["pruned"] as? Bool == true, "\(results)")
        let devices = try #require(try Self.call(server.url + "/__test/devices", method: "GET").json?["devices"] as? [[String: Any]])
        #expect(devices.map { $0["device_token"] as? String } == [token])
        let firstCapability = try #require(devices.first?["capability"] as? String)
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let mine = try #require(lines.last { ($0["path"] as? String) == "/3/device/" + token })
        #expect((mine["answer"] as? [String: Any])?["status"] as? Int == 200)
        #expect((mine["headers"] as? [String: String])?["apns-collapse-id"] == "hermes-push-test")
        #expect(lines.contains { ($0["path"] as? String) == "/3/device/" + Self.pruned && ($0["answer"] as? [String: Any])?["status"] as? Int == 410 })

        // The gateway comes back with a new secret on the same port: the kept capability is stale
        // (403), so the plugin registers again and the push goes through.
        gatewayProcess.stop()
        gatewayProcess = try gateway("second-secret", port: String(try #require(gatewayURL.dropLast("/push".count).split(separator: ":").last)))
        defer { gatewayProcess.stop() }
        let notify = try Self.call(server.url + "/__test/notify", ["type": "approval", "session_id": "s-7"])
        let delivered = try #require((notify.json?["results"] as? [[String: Any]])?.first)
        #expect(notify.status == 200 && delivered["delivered"] as? Bool == true, "\(notify.body)")
        let stale = try Self.lastSend(server.url)
        #expect(stale["registrations"] as? Int == 1 && stale["pushes"] as? Int == 2, "403 → register → retry: \(stale)")
        let secondCapability = try Self.call(server.url + "/__test/devices", method: "GET").json.flatMap { ($0["devices"] as? [[String: Any]])?.first?["capability"] as? String }
        #expect(secondCapability != nil && secondCapability != firstCapability)

        // The stand-in handed the pushes it accepted to the device holding the token: the test
        // send and the approval are shown there, and the record says they were delivered.
        var shown: [String] = []
        let reached = waitUntil(timeout: 20) {
            shown = ((try? hermes(ctl("state").result)["notifications"]) as? [[String: Any]] ?? []).compactMap { $0["sessionID"] as? String }
            return shown.contains("s-7")
        }
        #expect(reached && shown.contains("hermes-push-test"), "the device shows \(shown)")
        #expect(hermes(try ctl("state").result)["badge"] as? Int == 0, "an approval counts on the badge once tapped, not when shown")
        let approval = try #require(try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").last)
        let approvalLine = try #require(try JSONSerialization.jsonObject(with: Data(approval.utf8)) as? [String: Any])
        #expect(approvalLine["delivered"] as? Bool == true, "\(approvalLine)")
        // A tap on it opens its session.
        let payload = try #require(approvalLine["payload"])
        let payloadText = String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
        let tapped = try ctl("push", "tap", payloadText)
        #expect(tapped.status == 0 && tapped.result["outcome"] as? String == "shown", "\(tapped.error)")
        let state = hermes(try ctl("state").result)
        #expect(state["sessionOnScreen"] as? String == "s-7" && state["badge"] as? Int == 0)
        #expect(try ctl("push", "deliver", payloadText).result["outcome"] as? String == "suppressed", "its session is on screen")

        // Sign-out unregisters the token and forgets it.
        #expect(try ctl("sign-out").status == 0)
        #expect(try ctl("wait", "hermes.token=null", "hermes.signedIn=false").status == 0)
        #expect(waitUntil(timeout: 10) { ((try? Self.call(server.url + "/__test/devices", method: "GET").json?["devices"] as? [Any]) ?? [1]).isEmpty })
    }

    @Test("not ready: the setup offer and its snooze on the device's clock; the badge across a cold start; a test with no devices is sent")
    func deviceRules() throws {
        let server = try ServingProcess(["hermes-server", "serve", "--session-token", "T", "--gateway", "http://127.0.0.1:9", "--hub", "disabled"])
        defer { server.stop() }
        var phone = try device(server.url)
        #expect(try ctl("wait", "hermes.readiness=not-ready", "hermes.prompt=setup").status == 0)
        let events = try HostShellBinary.run(["ctl", socket, "events", "--kind", "state", "--count", "1", "--timeout", "10"], environment: home.environment)
        #expect(events.status == 0 && events.stdout.contains(#""prompt":"setup""#), "the state streams: \(events.stdout.prefix(300))")
        #expect(try ctl("hermes", "later").status == 0)
        #expect(try ctl("wait", "hermes.prompt=none", "hermes.snooze.laterCount=1").status == 0)
        #expect(try ctl("hermes", "later").status == 1, "no offer showing: refused")
        #expect(try ctl("hermes", "clock", "86000").status == 0)
        #expect(try ctl("hermes", "probe").status == 0)
        #expect(try ctl("wait", "hermes.readiness=not-ready").status == 0)
        #expect(hermes(try ctl("state").result)["prompt"] as? String == "none", "still snoozed within the first day")
        #expect(try ctl("hermes", "clock", "400").status == 0)
        #expect(try ctl("hermes", "probe").status == 0)
        #expect(try ctl("wait", "hermes.prompt=setup").status == 0, "offered again once the day is over")

        // Foreground suppression: only the session on screen, only in the foreground.
        func push(_ session: String, _ type: String) -> String {
            #"{"aps":{"alert":{"title":"T","body":"B"},"thread-id":"\#(session)"},"session_id":"\#(session)","type":"\#(type)"}"#
        }
        #expect(try ctl("hermes", "open", "s-1").status == 0)
        #expect(try ctl("push", "deliver", push("s-1", "complete")).result["outcome"] as? String == "suppressed")
        #expect(try ctl("push", "deliver", push("s-2", "complete")).result["outcome"] as? String == "shown")
        #expect(try ctl("lifecycle", "background").status == 0)
        #expect(try ctl("push", "deliver", push("s-1", "complete")).result["outcome"] as? String == "shown")
        #expect(try ctl("push", "deliver", "{\"aps\":{}}").result["outcome"] as? String == "ignored")

        // A cold start from an approval: the tap waits, the badge counts it until its session opens.
        phone.stop()
        phone = try device(server.url, ["--cold-start"])
        defer { phone.stop() }
        #expect(try ctl("wait", "hermes.readiness=not-ready").status == 0)
        #expect(try ctl("push", "tap", push("s-3", "approval")).status == 0)
        var state = hermes(try ctl("state").result)
        #expect(state["badge"] as? Int == 1 && (state["bufferedTap"] as? [String: Any])?["sessionID"] as? String == "s-3" && state["sessionOnScreen"] is NSNull)
        #expect(try ctl("hermes", "ready").status == 0)
        state = hermes(try ctl("state").result)
        #expect(state["badge"] as? Int == 0 && state["sessionOnScreen"] as? String == "s-3")
        // The snooze survived the restart.
        #expect((state["snooze"] as? [String: Any])?["laterCount"] as? Int == 1)

        #expect(try ctl("hermes", "test").status == 0)
        #expect(try ctl("wait", "hermes.test.state=sent").status == 0, "any 2xx is sent, even with no devices")
        #expect(try ctl("hermes", "frobnicate").status == 1)
        #expect(try ctl("back").status == 1, "a Studio command is refused with the device's commands")
    }

    @Test("a denial registers nothing, a later grant does; a rotated token registers again; not installed: setup offered and the test fails; no server: unknown")
    func registrationRules() throws {
        let server = try ServingProcess(["hermes-server", "serve", "--session-token", "T", "--gateway", "http://127.0.0.1:9"])
        defer { server.stop() }
        func tokens() throws -> [String] {
            ((try Self.call(server.url + "/__test/devices", method: "GET").json?["devices"] as? [[String: Any]]) ?? []).compactMap { $0["device_token"] as? String }
        }
        var phone = try device(server.url, ["--name", "rules"])
        #expect(try ctl("wait", "hermes.prompt=permission").status == 0)
        #expect(try ctl("permission", "deny").status == 0)
        #expect(try ctl("wait", "hermes.permission=denied").status == 0)
        #expect(try tokens().isEmpty)
        #expect(try ctl("permission", "grant").status == 0, "the setting changed later")
        let first = try #require(hermes(try ctl("wait", "hermes.registration.state=registered").result)["token"] as? String)
        #expect(try tokens() == [first])
        #expect(try ctl("push-token", "rotate").status == 0)
        let second = try #require(hermes(try ctl("wait", "hermes.registration.state=registered").result)["token"] as? String)
        let afterRotation = try tokens()
        #expect(second != first && afterRotation.contains(second))

        // The same profile against a server without the plugin.
        phone.stop()
        let bare = try ServingProcess(["hermes-server", "serve", "--session-token", "T", "--gateway", "http://127.0.0.1:9", "--not-installed"])
        phone = try device(bare.url, ["--name", "rules"])
        defer { phone.stop() }
        #expect(try ctl("wait", "hermes.readiness=not-ready", "hermes.prompt=setup").status == 0)
        #expect(try ctl("hermes", "test").status == 0)
        let failed = try ctl("wait", "hermes.test.state=failed")
        #expect(failed.status == 0 && ((hermes(failed.result)["test"] as? [String: Any])?["error"] as? String)?.hasPrefix("HTTP 404") == true)
        bare.stop()
        #expect(try ctl("hermes", "later").status == 0)
        #expect(try ctl("hermes", "probe").status == 0)
        #expect(try ctl("wait", "hermes.readiness=unknown", "hermes.prompt=none").status == 0, "no answer: unknown, no prompt")
    }

    @Test("bad arguments are refused with one clear line; --help lists every flag", arguments: [
        ["hermes-server", "serve"], ["hermes-server", "serve", "--session-token", "T"], ["hermes-server", "serve", "--gateway", "ftp://x"],
        ["hermes-server", "serve", "--session-token", "T", "--gateway", "http://127.0.0.1:9", "--hub", "maybe"], ["hermes-server", "run"],
        ["device"], ["device", "homesec"], ["device", "hermes", "--server", "http://127.0.0.1:9"],
        ["device", "hermes", "--server", "x", "--session-token", "T", "--control", "x.sock"],
        ["device", "hermes", "--server", "http://127.0.0.1:9", "--session-token", "T", "--control", "x.sock", "--name", "../up"],
        ["device", "hermes", "--frobnicate"],
    ])
    func badArguments(_ arguments: [String]) throws {
        let run = try HostShellBinary.run(arguments, environment: home.environment)
        #expect(run.status == 2 && run.stderr.hasPrefix("hostshell: ") && !run.stderr.contains("Fatal error"), "\(arguments): \(run.stderr)")
        let serverHelp = try HostShellBinary.run(["hermes-server", "serve", "--help"])
        for flag in ["--session-token", "--gateway", "--hub", "--not-installed", "--port"] { #expect(serverHelp.stdout.contains(flag)) }
        let deviceHelp = try HostShellBinary.run(["device", "hermes", "--help"])
        for flag in ["--server", "--session-token", "--control", "--name", "--environment", "--cold-start"] { #expect(deviceHelp.stdout.contains(flag)) }
    }
}
