import Foundation
import Testing

/// Issue 28 item 4 on `device hermes`: the gateway sends each push with `apns-collapse-id` = its
/// session id, so a second push for a session replaces the first on the phone, as iOS shows it.
@Suite("Hermes' device: a push with the collapse id of a shown one replaces it (hermes-server → gateway → apns serve → device hermes)", .serialized)
struct HermesCollapseTests {
    @Test("two pushes for one session: one notification, the newer; another session's stays beside it")
    func collapse() throws {
        let loop = HermesLoopTests()
        let keys = try APNsKeys()
        let publicKey = try keys.make("HKEY")
        let standIn = try APNsProcess(["--team", "TEAMH", "--key", "HKEY=" + publicKey, "--record", keys.path("record.jsonl")],
                                      environment: loop.home.environment)
        defer { standIn.stop() }
        let sandbox = try #require(standIn.ports["sandbox"])
        let gateway = try ServingProcess(["hermes-gateway", "serve", "--secret", "s", "--team", "TEAMH", "--key-id", "HKEY",
                                          "--key-file", keys.path("HKEY.key"), "--topic", "com.example.hermes",
                                          "--apns-sandbox", "http://127.0.0.1:\(sandbox)"])
        defer { gateway.stop() }
        let server = try ServingProcess(["hermes-server", "serve", "--session-token", "T", "--gateway", gateway.url])
        defer { server.stop() }
        let phone = try loop.device(server.url)
        defer { phone.stop() }
        #expect(try loop.ctl("wait", "hermes.prompt=permission", "hermes.readiness=ready").status == 0)
        #expect(try loop.ctl("permission", "grant").status == 0)
        #expect(try loop.ctl("wait", "hermes.registration.state=registered").status == 0)

        func notify(_ type: String, _ session: String) throws {
            let sent = try HermesLoopTests.call(server.url + "/__test/notify", ["type": type, "session_id": session])
            #expect(sent.status == 200 && (sent.json?["results"] as? [[String: Any]])?.first?["delivered"] as? Bool == true, "\(sent.body)")
        }
        func shown() throws -> [String] {
            (loop.hermes(try loop.ctl("state").result)["notifications"] as? [[String: Any]] ?? []).map {
                "\($0["sessionID"] as? String ?? "?"):\($0["type"] as? String ?? "?")"
            }
        }
        try notify("approval", "s-1")
        try notify("clarify", "s-2")
        #expect(waitUntil(timeout: 20) { (try? shown())?.count == 2 })
        try notify("complete", "s-1")
        var now: [String] = []
        #expect(waitUntil(timeout: 20) { now = (try? shown()) ?? []; return now.contains("s-1:complete") })
        #expect(now == ["s-2:clarify", "s-1:complete"], "the session's newer push replaced its approval: \(now)")
    }
}
