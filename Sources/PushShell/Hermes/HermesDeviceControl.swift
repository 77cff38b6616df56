import Glibc
import HostCore
import Push
import ShellKit

/// The emulated Hermes phone's control interface (`device hermes --control SOCKET`): `state`
/// and `wait` over the device's state, the system's side (`permission`, `push-token rotate`,
/// `push deliver|tap`, `lifecycle`), `sign-out`, and `hermes STEP [ARG]` for the app's own
/// steps. Steps that go to the server answer at once; `wait` sees their outcome.
@MainActor
package final class HermesDeviceControl {
    package let device: HermesDevice
    private var waiters: [(id: Int, predicate: StatePredicate, answer: @MainActor (Bool) -> Void)] = []
    private var nextWaiter = 0
    /// Its control interface's `events` stream: the device's state changes.
    let events = EventStream()

    init(device: HermesDevice) {
        self.device = device
        device.onChange = { [weak self] in self?.recheck() }
        // `ctl SOCKET events --kind state` streams the device's state changes.
        events.stateSource = { [weak device] in device?.state ?? .null }
    }

    func handle(_ request: ControlRequest, answer: @escaping @MainActor (String) -> Void) {
        let id = request.id
        let ok: @MainActor (JSONValue) -> Void = { answer(ControlResponse.ok(id, $0)) }
        let fail: @MainActor (String) -> Void = { answer(ControlResponse.failure(id, ControlError($0))) }
        do throws(ControlError) {
            try handle(request.command, ok: ok, fail: fail)
        } catch {
            fail(error.message)
        }
    }

    private func handle(_ command: ControlCommand, ok: @escaping @MainActor (JSONValue) -> Void,
                        fail: @escaping @MainActor (String) -> Void) throws(ControlError) {
        switch command {
        case .state:
            ok(device.state)
        case .wait(let predicate, let timeout):
            wait(predicate, timeout: timeout, ok: ok, fail: fail)
        case .permission(let grant):
            try device.update { $0.permissionAnswered(grant: grant) }
            ok(["message": .string(grant ? "granted" : "denied")])
        case .app(let request) where PushControl.owns(request.name):
            try handle(try PushControl.decode(request), ok: ok, fail: fail)
        case .app(let request) where HermesControl.owns(request.name):
            switch try HermesControl.decode(request) {
            case .signOut:
                try device.update { $0.signOut() }
                ok(["message": "signed out"])
            case .hermes(let action, let value):
                try hermes(action, value, ok: ok)
            }
        case .lifecycle(let change):
            guard change == .background || change == .foreground else { throw ControlError("Hermes' device takes lifecycle background or foreground") }
            try device.update { client in client.foreground = change == .foreground; return [] }
            ok(["message": .string("lifecycle \(change.rawValue)")])
        default:
            throw ControlError("Hermes' device takes state, wait, permission, lifecycle background|foreground, \(PushControl.names.joined(separator: ", ")), sign-out and hermes \(Self.steps)")
        }
    }

    private func handle(_ command: PushControlCommand, ok: @escaping @MainActor (JSONValue) -> Void,
                        fail: @escaping @MainActor (String) -> Void) throws(ControlError) {
        switch command {
        case .rotatePushToken:
            device.rotateToken()
            ok(["message": "the device token was rotated"])
        case .notification:
            throw ControlError("Hermes' device shows its notifications in its state; open one with hermes tap ID")
        case .push(let tap, let payload):
            let reception = device.receive(payload: payload)
            guard tap else { return ok(Self.json(reception)) }
            guard case .shown(let notification) = reception else {
                return fail("the push was not shown (\(Self.json(reception).objectValue?["outcome"]?.stringValue ?? "")), so there is nothing to tap")
            }
            try device.update { (client: inout HermesClient) throws(ControlError) in try client.tap(id: notification.id) }
            ok(Self.json(reception))
        }
    }

    static let steps = HermesControl.steps

    private func hermes(_ action: String, _ value: String?, ok: @escaping @MainActor (JSONValue) -> Void) throws(ControlError) {
        func argument(_ what: String) throws(ControlError) -> String {
            guard let value, !value.isEmpty else { throw ControlError("hermes \(action) takes \(what)") }
            return value
        }
        switch action {
        case "probe": try device.update { $0.launch() }
        case "later": try device.update { [now = device.now] (client: inout HermesClient) throws(ControlError) in try client.later(now: now); return [] }
        case "clock":
            guard let seconds = Double(try argument("a number of seconds to move the clock on")), seconds >= 0, seconds <= 1e9 else {
                throw ControlError("hermes clock takes a number of seconds from 0 to 1e9")
            }
            device.advanceClock(by: seconds)
        case "open":
            let session = try argument("the session id")
            try device.update { $0.open(session) }
        case "close": try device.update { client in client.closeSession(); return [] }
        case "tap":
            guard let id = Int(try argument("a shown notification's id")) else { throw ControlError("hermes tap takes a notification id (a whole number)") }
            try device.update { (client: inout HermesClient) throws(ControlError) in try client.tap(id: id) }
        case "test": try device.update { (client: inout HermesClient) throws(ControlError) in try client.sendTest() }
        case "ready": try device.update { $0.becameReady() }
        case "sign-in":
            let server = value ?? device.client.server
            guard server.hasPrefix("http://") || server.hasPrefix("https://") else { throw ControlError("hermes sign-in takes the server's URL") }
            try device.update { $0.signIn(server: server) }
        default:
            throw ControlError("unknown hermes step \"\(action)\"; steps: \(Self.steps)")
        }
        ok(["message": .string("hermes \(action)" + (value.map { " " + $0 } ?? "")), "hermes": device.client.json])
    }

    static func json(_ reception: HermesClient.Reception) -> JSONValue {
        switch reception {
        case .shown(let n): ["outcome": "shown", "notification": HermesClient.json(n)]
        case .suppressed(let n): ["outcome": "suppressed", "notification": HermesClient.json(n)]
        case .ignored(let why): ["outcome": "ignored", "reason": .string(why)]
        }
    }

    // MARK: wait

    private func wait(_ predicate: StatePredicate, timeout: Double, ok: @escaping @MainActor (JSONValue) -> Void,
                      fail: @escaping @MainActor (String) -> Void) {
        if predicate.holds(in: device.state) { return ok(device.state) }
        nextWaiter += 1
        let id = nextWaiter
        waiters.append((id, predicate, { [weak self] met in
            guard let self else { return }
            if met { ok(self.device.state) } else {
                fail("timed out after \(timeout) s: " + predicate.unmet(in: self.device.state).joined(separator: "; "))
            }
        }))
        MainLoop.after(milliseconds: UInt32(min(timeout, 3600) * 1000)) { [weak self] in
            guard let self, let index = self.waiters.firstIndex(where: { $0.id == id }) else { return }
            self.waiters.remove(at: index).answer(false)
        }
    }

    private func recheck() {
        guard !waiters.isEmpty else { return }
        let state = device.state
        let met = waiters.filter { $0.predicate.holds(in: state) }
        waiters.removeAll { waiter in met.contains { $0.id == waiter.id } }
        for waiter in met { waiter.answer(true) }
    }
}
