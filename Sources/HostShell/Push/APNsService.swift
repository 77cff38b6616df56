import BridgeRuntime
import CGtk
import Glibc

/// The stand-in behind every listener and HTTP version: asks `APNsStandIn` (BridgeRuntime) for
/// the decision, hands a taken push to the delivery, writes the record line, and answers —
/// late when a `slow:` fault says so.
@MainActor
final class APNsService {
    private var standIn: APNsStandIn
    let keys: ES256Keys
    let delivery: PushDelivery
    private let recordFile: Int32?

    init(options: APNsStandIn.Options, keys: ES256Keys, delivery: PushDelivery, recordPath: String?) throws(UsageError) {
        standIn = APNsStandIn(options: options, now: wallClockSeconds())
        self.keys = keys
        self.delivery = delivery
        if let recordPath {
            let fd = open(recordPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw UsageError("--record \(recordPath): cannot open it for writing (\(String(cString: strerror(errno))))") }
            recordFile = fd
        } else {
            recordFile = nil
        }
    }

    /// Decides `request` and calls `reply` with the decision, now or after its delay.
    func handle(_ request: APNsRequest, environment: APNsEnvironment, transport: String, reply: @escaping @MainActor (APNsDecision) -> Void) {
        let now = wallClockSeconds()
        var generator = SystemRandomNumberGenerator()  // two draws for 16 bytes, not a getrandom per byte
        let entropy = withUnsafeBytes(of: (generator.next(), generator.next())) { Array($0) }
        let decision = standIn.decide(request, environment: environment, now: now, signatures: keys, entropy: entropy)
        let delivered = decision.accepted.map { delivery.deliver($0) }
        if let recordFile {
            let line = Array((APNsRecord.line(request, decision, environment: environment, transport: transport,
                                              time: now, delivered: delivered) + "\n").utf8)
            _ = line.withUnsafeBytes { write(recordFile, $0.baseAddress, $0.count) }  // O_APPEND: one write per line
        }
        if decision.delayMs > 0 {
            MainLoop.after(milliseconds: UInt32(decision.delayMs)) { reply(decision) }
        } else {
            reply(decision)
        }
    }
}
