import Foundation
import Testing

/// The reference HomeSec server's notifier against the real APNs stand-in, both in their own
/// processes on loopback: events raised through `POST /__test/event`, pushes read back from the
/// stand-in's record and the server's `/__test/log`.
@Suite("serve --homesec with the APNs notifier, against hostshell apns serve", .serialized)
struct HomeSecNotifyTests {
    static let bundle = "com.example.homesec"
    static let good = String(repeating: "A1", count: 32)
    static let gone = String(repeating: "B2", count: 32)
    static let flaky = String(repeating: "C3", count: 32)
    static let other = String(repeating: "D4", count: 32)

    /// A stand-in (its gone and flaky tokens faulted), a HomeSec server pointed at its sandbox
    /// listener with a key it knows, and the path of the stand-in's record.
    struct Loop {
        let keys: APNsKeys
        let standIn: APNsProcess
        let server: HomeSecProcess
        let record: String

        /// `settings`: how the server is told about APNs, given the stand-in's sandbox URL and the
        /// private key's file (flags by default).
        init(_ settings: (String, String) throws -> (arguments: [String], environment: [String: String]) = Loop.flags) throws {
            keys = try APNsKeys()
            let publicKey = try keys.make("HSKEY")
            record = keys.path("record.jsonl")
            standIn = try APNsProcess(["--team", "TEAMHS", "--key", "HSKEY=" + publicKey, "--record", record,
                                       "--fault", HomeSecNotifyTests.gone + "=Unregistered", "--fault", HomeSecNotifyTests.flaky + "=503"])
            let sandbox = try #require(standIn.ports["sandbox"])
            let (arguments, environment) = try settings("http://127.0.0.1:\(sandbox)", keys.path("HSKEY.key"))
            server = try HomeSecProcess(arguments, environment: environment)
        }

        static func flags(_ base: String, _ key: String) -> (arguments: [String], environment: [String: String]) {
            (["--apns-bundle-id", HomeSecNotifyTests.bundle, "--apns-base-url", base, "--apns-key-id", "HSKEY", "--apns-team-id", "TEAMHS",
              "--apns-key", key], [:])
        }

        func stop() {
            server.stop()
            standIn.stop()
        }

        func register(_ token: String, environment: String = "sandbox", bundle: String = HomeSecNotifyTests.bundle) throws -> String {
            let body = #"{"platform":"ios","apns_token":"\#(token)","environment":"\#(environment)","bundle_id":"\#(bundle)"}"#
            let answer = try RawHTTP.send("POST", server.url + "/api/v1/mobile/devices", headers: ["Content-Type": "application/json"], body: body)
            #expect(answer.status == 201)
            return try #require((answer.json as? [String: Any])?["id"] as? String)
        }

        /// Raises an event and waits until its notification has finished; its `/__test/log` entry.
        func raise(_ body: String) throws -> [String: Any] {
            let answer = try RawHTTP.send("POST", server.url + "/__test/event", headers: ["Content-Type": "application/json"], body: body)
            #expect(answer.status == 202)
            let run = try #require((answer.json as? [String: Any])?["run"] as? Int)
            var entry: [String: Any] = [:]
            let finished = try waitUntil(timeout: 30) {
                let runs = try server.log()["notifications"] as? [[String: Any]] ?? []
                entry = runs.first { $0["run"] as? Int == run } ?? [:]
                return ["delivered", "failed"].contains(entry["state"] as? String ?? "")
            }
            #expect(finished, "run \(run) did not finish: \(entry)")
            return entry
        }

        /// The stand-in's record lines for one device token.
        func pushes(to token: String) throws -> [[String: Any]] {
            let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
            return try text.split(separator: "\n").compactMap { line in
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            }.filter { ($0["path"] as? String) == "/3/device/" + token }
        }

        func device(_ id: String) throws -> [String: Any] {
            let devices = try #require(try server.log()["devices"] as? [[String: Any]])
            return try #require(devices.first { $0["id"] as? String == id })
        }
    }

    @Test("event → the stand-in takes HomeSec's push with the event's route; Unregistered disables the device and is not retried")
    func loop() throws {
        let loop = try Loop()
        defer { loop.stop() }
        let good = try loop.register(Self.good)
        _ = try loop.register(Self.other, environment: "production")
        _ = try loop.register(Self.other.lowercased(), bundle: "com.example.other")

        let entry = try loop.raise(#"{"camera":"front_door","clip_id":"clip-42","activity_type":"person","risk_level":"high"}"#)
        #expect(entry["state"] as? String == "delivered" && entry["attempts"] as? Int == 1)
        let pushes = try loop.pushes(to: Self.good)
        #expect(pushes.count == 1)
        let push = try #require(pushes.first)
        #expect(push["transport"] as? String == "http/1.1" && push["environment"] as? String == "sandbox")
        #expect(push["headers"] as? [String: String] == ["apns-topic": Self.bundle, "apns-push-type": "alert", "apns-priority": "10"])
        #expect((push["provider"] as? [String: Any])?["kid"] as? String == "HSKEY" && (push["provider"] as? [String: Any])?["iss"] as? String == "TEAMHS")
        #expect((push["answer"] as? [String: Any])?["status"] as? Int == 200)
        let payload = try #require(push["payload"] as? [String: Any])
        #expect(payload["event_id"] as? String == "clip-42" && payload["route"] as? String == "/events/clip-42?from=notification")
        #expect(payload["type"] as? String == "event_alert" && payload["risk_level"] as? String == "high")
        let alert = try #require((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "front_door: person detected")
        #expect(try loop.pushes(to: Self.other).isEmpty && loop.pushes(to: Self.other.lowercased()).isEmpty, "other environments and apps are not targets")
        let device = try loop.device(good)
        #expect(device["last_push_at"] is String && device["last_push_error"] is NSNull && device["enabled"] as? Bool == true)

        // A token the stand-in says is gone: the device is disabled, the run not retried.
        let gone = try loop.register(Self.gone)
        let second = try loop.raise(#"{"clip_id":"clip-43"}"#)
        #expect(second["state"] as? String == "failed" && second["retryable"] as? Bool == false && second["attempts"] as? Int == 1)
        let disabled = try loop.device(gone)
        #expect(disabled["enabled"] as? Bool == false && disabled["last_push_error"] as? String == "HTTP 410: Unregistered")
        #expect(try loop.pushes(to: Self.gone).count == 1)
        let third = try loop.raise(#"{"clip_id":"clip-45","camera":"driveway"}"#)
        #expect(third["state"] as? String == "delivered")
        #expect(try loop.pushes(to: Self.gone).count == 1, "a disabled device is no target any more")
        #expect(try loop.pushes(to: Self.good).count == 3)
    }

    @Test("a partial fan-out is not sent again; 503 on every device is retried after 1 s and 2 s, then failed as retryable")
    func retried() throws {
        let loop = try Loop()
        defer { loop.stop() }
        let good = try loop.register(Self.good)
        let flaky = try loop.register(Self.flaky)
        // One device takes it, one answers 503: raised, not retried — nobody gets it twice.
        let partial = try loop.raise(#"{"clip_id":"clip-44"}"#)
        #expect(partial["state"] as? String == "failed" && partial["retryable"] as? Bool == false && partial["attempts"] as? Int == 1)
        #expect(partial["error"] as? String == "APNs delivery failed for 1 of 2 device(s)")
        #expect(try loop.device(flaky)["last_push_error"] as? String == "HTTP 503: ServiceUnavailable")

        // Only the flaky device left: every attempt fails retryably, so the pipeline tries 3 times.
        #expect(try RawHTTP.send("DELETE", loop.server.url + "/api/v1/mobile/devices/" + good).status == 200)
        let entry = try loop.raise(#"{"clip_id":"clip-50"}"#)
        #expect(entry["state"] as? String == "failed" && entry["retryable"] as? Bool == true && entry["attempts"] as? Int == 3)
        func pushes(_ token: String, _ clip: String) throws -> [[String: Any]] {
            try loop.pushes(to: token).filter { ($0["payload"] as? [String: Any])?["event_id"] as? String == clip }
        }
        let retried = try pushes(Self.flaky, "clip-50")
        #expect(retried.count == 3 && retried.allSatisfy { ($0["answer"] as? [String: Any])?["status"] as? Int == 503 })
        let device = try loop.device(flaky)
        #expect(device["enabled"] as? Bool == true && device["last_push_error"] as? String == "HTTP 503: ServiceUnavailable")
        // Three seconds of retries later, the partial fan-out's event was still sent once to each device.
        #expect(try pushes(Self.good, "clip-44").count == 1 && pushes(Self.flaky, "clip-44").count == 1)
    }

    @Test("HomeSec's own environment variables work too (the PEM with \\n escapes); without a key every event fails, nothing is sent")
    func environment() throws {
        let loop = try Loop { base, key in
            let pem = try String(contentsOfFile: key, encoding: .utf8).replacingOccurrences(of: "\n", with: "\\n")
            return ([], ["HOMESEC_APNS_BUNDLE_ID": HomeSecNotifyTests.bundle, "HOMESEC_APNS_BASE_URL": base, "HOMESEC_APNS_KEY_ID": "HSKEY",
                         "HOMESEC_APNS_TEAM_ID": "TEAMHS", "HOMESEC_APNS_PRIVATE_KEY": pem])
        }
        defer { loop.stop() }
        _ = try loop.register(Self.good)
        let entry = try loop.raise(#"{"clip_id":"clip-60"}"#)
        #expect(entry["state"] as? String == "delivered")
        let push = try #require(try loop.pushes(to: Self.good).first)
        #expect((push["provider"] as? [String: Any])?["kid"] as? String == "HSKEY" && (push["answer"] as? [String: Any])?["status"] as? Int == 200)

        let unsigned = try Loop { base, _ in (["--apns-bundle-id", HomeSecNotifyTests.bundle, "--apns-base-url", base], [:]) }
        defer { unsigned.stop() }
        _ = try unsigned.register(Self.good)
        let failed = try unsigned.raise(#"{"clip_id":"clip-61"}"#)
        #expect(failed["state"] as? String == "failed" && failed["error"] as? String == "APNs provider credentials missing from environment")
        #expect(try unsigned.pushes(to: Self.good).isEmpty)
    }

    @Test("bad notifier options are refused with one clear line; --help lists them", arguments: [
        ["--apns-base-url", "http://127.0.0.1:1"], ["--apns-bundle-id", "not a bundle"],
        ["--apns-bundle-id", "com.x.y", "--apns-environment", "staging"], ["--apns-bundle-id", "com.x.y", "--apns-base-url", "ftp://x"],
        ["--apns-bundle-id", "com.x.y", "--apns-key-id", "K", "--apns-team-id", "T", "--apns-key", "/nonexistent"],
        ["--apns-bundle-id", "com.x.y", "--apns-key-id", "K", "--apns-team-id", "T", "--apns-key", "/dev/null"], ["--apns-key"],
    ])
    func badArguments(_ arguments: [String]) throws {
        let run = try HostShellBinary.run(["serve", "--homesec"] + arguments)
        #expect(run.status == 2 && run.stderr.hasPrefix("hostshell: ") && !run.stderr.contains("Fatal error"), "\(arguments): \(run.stderr)")
        #expect(!run.stderr.contains("unknown"), "the option is known; its value is what is refused: \(run.stderr)")
        let help = try HostShellBinary.run(["serve", "--homesec", "--help"])
        for flag in ["--apns-bundle-id", "--apns-base-url", "--apns-environment", "--apns-key-id", "--apns-team-id", "--apns-key", "/__test/event"] {
            #expect(help.stdout.contains(flag), "\(flag) is in the help")
        }
    }
}
