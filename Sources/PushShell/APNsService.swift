import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// The stand-in behind every listener and HTTP version: asks `APNsStandIn` (BridgeRuntime) for
/// the decision (a token a phone here holds is checked against its app and environment),
/// answers — late when a `slow:` fault says so — hands a taken push to the delivery, and writes
/// the record line once the delivery's outcome is known (`delivered`: true, false or "kept").
@MainActor
package final class APNsService {
    private var standIn: APNsStandIn
    let keys: ES256Keys
    let delivery: PushDelivery
    /// `--record FILE`: one JSON line per request, owner-only, rotated as the bridge log is.
    private let recordFile: LogFile?
    /// The bits of the `apns-id`s the stand-in makes: unique, not secret — seeded once from the
    /// system's random source, then drawn without a system call per request.
    private var ids = SeededGenerator(seed: UInt64.random(in: .min ... .max))
    /// `--verbose`: a line per request on stderr.
    var verbose = false
    /// What is said on stderr of pushes no app here holds.
    private var console = APNsConsole()

    init(options: APNsStandIn.Options, keys: ES256Keys, delivery: PushDelivery, recordPath: String?) throws(UsageError) {
        standIn = APNsStandIn(options: options, now: wallClockSeconds())
        self.keys = keys
        self.delivery = delivery
        recordFile = try recordPath.map { path throws(UsageError) in try LogFile(path: path, option: "--record") }
    }

    /// Decides `request` and calls `reply` with the decision, now or after its delay.
    func handle(_ request: APNsRequest, environment: APNsEnvironment, transport: String, reply: @escaping @MainActor (APNsDecision) -> Void) {
        let now = wallClockSeconds()
        let entropy = withUnsafeBytes(of: (ids.next(), ids.next())) { Array($0) }
        // Who here holds the token, asked once: its app and environment are checked as Apple
        // checks them, and a push for a token nobody here holds is not offered to the phones.
        var holder: (token: String, device: APNsDevice)?
        if let token = Self.token(of: request), let device = delivery.device(holding: token) { holder = (token, device) }
        if let holder { standIn.learn(token: holder.token, device: holder.device) }
        let decision = standIn.decide(request, environment: environment, now: now, signatures: keys, entropy: entropy)
        if decision.delayMs > 0 {
            MainLoop.after(milliseconds: UInt32(decision.delayMs)) { reply(decision) }
        } else {
            reply(decision)
        }
        guard let accepted = decision.accepted else { return finish(request, decision, environment, transport, now, nil) }
        guard holder != nil else { return finish(request, decision, environment, transport, now, .some(nil)) }
        delivery.deliver(accepted) { [weak self] ack in
            self?.finish(request, decision, environment, transport, now, .some(ack))
        }
    }

    /// Records the request and says what the console says of it. `ack`: nil for a push not
    /// taken; `.some(nil)` for one taken that no app here holds.
    private func finish(_ request: APNsRequest, _ decision: APNsDecision, _ environment: APNsEnvironment, _ transport: String,
                        _ time: Double, _ ack: PhoneAck??) {
        if case .some(nil) = ack, let token = Self.token(of: request),
           let line = console.unheld(token: token, phoneDirectory: PhoneListener.directory) {
            printError(line)
        }
        if verbose {
            printError(APNsConsole.requestLine(request, decision, environment: environment, transport: transport,
                                               outcome: ack.map { APNsConsole.outcome($0) }))
        }
        guard let recordFile else { return }
        let delivery: JSONValue? = ack.map { $0?.recordValue ?? .bool(false) }
        recordFile.write(APNsRecord.line(request, decision, environment: environment, transport: transport, time: time, delivery: delivery))
    }

    /// The device token of `/3/device/{token}`, when it is one.
    private nonisolated static func token(of request: APNsRequest) -> String? {
        guard let token = APNsStandIn.deviceToken(inPath: request.path), APNsDeviceToken.isWellFormed(token) else { return nil }
        return token
    }
}
