import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// Hermes' phone without a page: `HermesClient` (BridgeRuntime) decides every step; this carries
/// its actions out — the readiness probe, registration and the test send over HTTP to the Hermes
/// server, the system's device token (kept in the profile's push.json, as the system keeps it),
/// the permission prompt left open for `ctl permission` — and keeps the client's state in the
/// profile's hermes.json. `receive(payload:)` is where pushes for this device come in.
@MainActor
package final class HermesDevice {
    private(set) var client: HermesClient
    let name: String
    let profile: String
    let sessionToken: String
    /// Hermes' app's bundle id: the APNs topic its pushes carry.
    let bundleID: String
    /// Where `hostshell apns serve` hands this device its pushes, while it holds a token.
    private var phone: PhoneListener?
    /// Seconds added to the wall clock (`ctl hermes clock S`), for the snooze schedule.
    private(set) var clockOffset = 0.0
    /// What the device did, newest last (at most `maxSteps`).
    private(set) var steps: [String] = []
    static let maxSteps = 100
    /// Called after every change (the control interface re-checks its waits).
    var onChange: (@MainActor () -> Void)?
    private let http = JSONRequest(timeoutSeconds: 10)

    var now: Double { wallClockSeconds() + clockOffset }

    init(name: String, server: String, sessionToken: String, environment: APNsEnvironment, bundleID: String) {
        self.name = name
        self.sessionToken = sessionToken
        self.bundleID = bundleID
        profile = String(cString: g_get_user_data_dir()) + "/hostshell/devices/" + name
        g_mkdir_with_parents(profile, 0o700)
        if let saved = Self.read(profile + "/hermes.json").flatMap(HermesClient.init(saved:)) {
            client = saved
            client.environment = environment
            client.coldStart()
            if saved.server != server { _ = client.signOut(); _ = client.signIn(server: server) }
        } else {
            client = HermesClient(server: server, environment: environment)
        }
    }

    /// The app launches: probe readiness; ready at once unless it was launched from a
    /// notification (`coldStart`: then `ctl hermes ready`).
    package func start(coldStart: Bool) {
        note("launched" + (coldStart ? " (cold start: not ready yet)" : ""))
        if let token = client.token { listen(token) }
        perform(client.launch())
        if !coldStart { perform(client.becameReady()) }
        changed()
    }

    /// The device is switched off: it stops taking pushes (the stand-in keeps nothing for it).
    package func stop() {
        phone?.stop()
        phone = nil
    }

    /// Takes the pushes the stand-in accepts for `token` (the newest token replaces the last).
    private func listen(_ token: String) {
        guard phone?.entry.token != token.lowercased() else { return }
        phone?.stop()
        do throws(UsageError) {
            phone = try PhoneListener(token: token, appId: bundleID, topic: bundleID, environment: client.environment) { [weak self] push, ack in
                guard let self else { return ack(.refused("the device is shutting down")) }
                // The device took it either way; hidden in front is the foreground's rule.
                if case .suppressed = self.receive(payload: push.payload, collapseID: push.collapseID) { ack(.foreground) } else { ack(.delivered) }
            }
            note("taking pushes for …\(token.suffix(6)) (\(bundleID), \(client.environment.rawValue))")
        } catch {
            phone = nil
            note("cannot take pushes: \(error.message)")
        }
    }

    var state: JSONValue {
        ["device": ["kind": "hermes", "name": .string(name), "profile": .string(profile)],
         "hermes": client.json,
         "clock": ["now": .number(now.rounded(.down)), "offset": .number(clockOffset)],
         "steps": .array(steps.map(JSONValue.string))]
    }

    // MARK: the entry points the control interface and the push side use

    /// A push for this device arrived (the APNs stand-in delivers it; `ctl push deliver` too).
    @discardableResult
    func receive(payload: JSONObject, collapseID: String? = nil) -> HermesClient.Reception {
        let reception = client.receive(payload, collapseID: collapseID)
        switch reception {
        case .shown(let notification): note("notification \(notification.id) shown: \(notification.title) (\(notification.sessionID))")
        case .suppressed(let notification): note("notification for \(notification.sessionID) hidden: its session is on screen")
        case .ignored(let why): note("push ignored: \(why)")
        }
        changed()
        return reception
    }

    func update(_ body: (inout HermesClient) throws(ControlError) -> [HermesDeviceAction]) throws(ControlError) {
        let actions = try body(&client)
        perform(actions)
        changed()
    }

    func advanceClock(by seconds: Double) {
        clockOffset += seconds
        note("clock advanced \(Int(seconds)) s")
        changed()
    }

    /// A new device token from the system (as after a reinstall or a restore).
    func rotateToken() {
        let token = Self.newToken()
        saveToken(token)
        note("the system gave a new device token …\(token.suffix(6))")
        perform(client.tokenReceived(token))
        changed()
    }

    // MARK: carrying actions out

    private func perform(_ actions: [HermesDeviceAction]) {
        for action in actions { perform(action) }
    }

    private var headers: [(String, String)] { [("X-Hermes-Session-Token", sessionToken), ("Content-Type", "application/json")] }
    private var base: String { client.server.hasSuffix("/") ? String(client.server.dropLast()) : client.server }

    private func perform(_ action: HermesDeviceAction) {
        switch action {
        case .probeReadiness:
            note("probing readiness")
            http.send("GET", base + HermesPluginServer.hubPath, headers: headers) { [weak self] status, body in
                guard let self else { return }
                self.perform(self.client.readinessProbed(status: status, body: body, now: self.now))
                self.note("readiness: \(self.client.readiness.rawValue)" + (self.client.prompt == .none ? "" : "; prompt: \(self.client.prompt.rawValue)"))
                self.changed()
            }
        case .askPermission:
            note("asking for notification permission (ctl permission grant|deny answers)")
        case .requestToken:
            let token = Self.read(profile + "/push.json")?.objectValue?["token"]?.stringValue.flatMap { APNsDeviceToken.isWellFormed($0) ? $0 : nil }
                ?? Self.newToken()
            saveToken(token)
            MainLoop.after(milliseconds: 0) { [weak self] in
                guard let self else { return }
                self.note("the system gave device token …\(token.suffix(6))")
                self.perform(self.client.tokenReceived(token))
                self.changed()
            }
        case .register(let token, let environment, let version):
            note("registering …\(token.suffix(6)) (\(environment.rawValue))")
            let body: JSONValue = ["device_token": .string(token), "apns_env": .string(environment.rawValue), "app_version": .string(version)]
            http.send("POST", base + HermesPluginServer.prefix + "/register", headers: headers, body: body) { [weak self] status, json in
                guard let self else { return }
                self.client.registerAnswered(token: token, status: status, body: json)
                self.note("register …\(token.suffix(6)): " + (status.map { "HTTP \($0)" } ?? "no answer"))
                self.changed()
            }
        case .unregister(let token):
            note("unregistering …\(token.suffix(6))")
            http.send("POST", base + HermesPluginServer.prefix + "/unregister", headers: headers, body: ["device_token": .string(token)]) { [weak self] status, _ in
                self?.note("unregister …\(token.suffix(6)): " + (status.map { "HTTP \($0)" } ?? "no answer") + " (best effort)")
                self?.changed()
            }
        case .sendTest:
            note("sending a test notification")
            http.send("POST", base + HermesPluginServer.prefix + "/test", headers: headers, body: [:]) { [weak self] status, json in
                guard let self else { return }
                self.client.testAnswered(status: status, body: json)
                self.note("test notification: " + (status.map { "HTTP \($0)" } ?? "no answer"))
                self.changed()
            }
        case .openSession(let session):
            note("session \(session) on screen")
        }
    }

    private func note(_ step: String) {
        steps.append(step)
        if steps.count > Self.maxSteps { steps.removeFirst(steps.count - Self.maxSteps) }
    }

    private func changed() {
        Self.write(profile + "/hermes.json", client.saved)
        onChange?()
    }

    private func saveToken(_ token: String) {
        listen(token)
        Self.write(profile + "/push.json", ["token": .string(token), "environment": .string(client.environment.rawValue)])
    }

    /// 32 random bytes in lower-case hex, as Hermes' app reports its token.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<64).map { _ in digits[Int(generator.next() & 15)] })
    }

    static func read(_ path: String) -> JSONValue? {
        var contents: UnsafeMutablePointer<CChar>?
        var length: gsize = 0
        guard g_file_get_contents(path, &contents, &length, nil) != 0, let contents else { return nil }
        defer { g_free(contents) }
        let bytes = Array(UnsafeRawBufferPointer(start: contents, count: Int(length)))
        return try? JSONParser.parse(bytes: bytes)
    }

    static func write(_ path: String, _ value: JSONValue) {
        let text = JSONWriter.string(value) + "\n"
        _ = g_file_set_contents(path, text, gssize(text.utf8.count), nil)
    }
}
