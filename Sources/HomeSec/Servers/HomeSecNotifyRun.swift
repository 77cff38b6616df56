import HostCore

/// One event's notification over time, as HomeSec's pipeline drives its `apns_mobile` notifier
/// (push CONTRACT §2): each attempt lists the targets of that moment and sends to all of them;
/// when every answer is in, a fan-out without failures is delivered; one with failures raises,
/// retryable only when nothing was delivered and some failure was retryable — so a device that
/// got the push never gets it twice. A retryable fan-out is tried again after 1 s, then 2 s
/// (3 attempts in all); then it has failed.
public struct HomeSecNotifyRun: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// An attempt's requests are out.
        case sending
        /// A retry is due `after` seconds after the attempt ended.
        case waiting(after: Double)
        /// Every target took it (or there were none).
        case delivered
        /// Given up: the last attempt's error, and whether the pipeline could have retried it.
        case failed(retryable: Bool)
    }

    /// One request to one device in one attempt; `outcome` nil while it is out.
    public struct Send: Sendable, Equatable {
        public var attempt: Int
        public var deviceID: String
        public var outcome: HomeSecNotifier.Outcome?
    }

    public let id: Int
    public let event: HomeSecEvent
    public internal(set) var phase: Phase = .waiting(after: 0)
    /// Attempts begun so far (1…3).
    public internal(set) var attempt = 0
    public internal(set) var sends: [Send] = []
    /// When the current attempt began: the `last_push_at` each of its devices records.
    public internal(set) var attemptStartedAt: Double = 0
    /// The last attempt's error, as HomeSec raises it.
    public internal(set) var error: String?

    public init(id: Int, event: HomeSecEvent) {
        self.id = id
        self.event = event
    }

    public var isFinished: Bool {
        switch phase {
        case .delivered, .failed: return true
        case .sending, .waiting: return false
        }
    }

    /// Starts attempt `attempt + 1` to `targets` (device ids); false when there is none to start.
    mutating func begin(targets: [String], now: Double) -> Bool {
        guard case .waiting = phase, attempt < HomeSecNotifier.attempts else { return false }
        attempt += 1
        attemptStartedAt = now
        error = nil
        sends += targets.map { Send(attempt: attempt, deviceID: $0, outcome: nil) }
        phase = targets.isEmpty ? .delivered : .sending
        return true
    }

    /// Ends the run before anything is sent (no payload, no credentials, no notifier).
    mutating func give(up message: String) {
        error = message
        phase = .failed(retryable: false)
    }

    /// Records one device's answer in the current attempt. True when it was awaited.
    mutating func record(deviceID: String, outcome: HomeSecNotifier.Outcome) -> Bool {
        guard case .sending = phase,
              let index = sends.firstIndex(where: { $0.attempt == attempt && $0.deviceID == deviceID && $0.outcome == nil }) else { return false }
        sends[index].outcome = outcome
        return true
    }

    /// Once every answer of the attempt is in: the attempt's verdict, and the delay before the
    /// next attempt when there is one.
    mutating func settle() -> Double? {
        guard case .sending = phase else { return nil }
        let current = sends.filter { $0.attempt == attempt }
        guard current.allSatisfy({ $0.outcome != nil }) else { return nil }
        let kinds = current.compactMap { $0.outcome?.kind }
        let delivered = kinds.filter { $0 == .delivered }.count
        let failed = kinds.count - delivered
        guard failed > 0 else {
            phase = .delivered
            return nil
        }
        error = "APNs delivery failed for \(failed) of \(kinds.count) device(s)"
        let retryable = delivered == 0 && kinds.contains(.retryable)
        guard retryable, attempt < HomeSecNotifier.attempts else {
            phase = .failed(retryable: retryable)
            return nil
        }
        let delay = HomeSecNotifier.retryDelays[attempt - 1]
        phase = .waiting(after: delay)
        return delay
    }

    /// For `/__test/log`.
    public var record: JSONValue {
        let phaseWord: String
        var retryable: JSONValue = .null
        switch phase {
        case .sending: phaseWord = "sending"
        case .waiting: phaseWord = "waiting"
        case .delivered: phaseWord = "delivered"
        case .failed(let flag): phaseWord = "failed"; retryable = .bool(flag)
        }
        let sent: [JSONValue] = sends.map { send in
            var kind: JSONValue = .null
            switch send.outcome?.kind {
            case .delivered: kind = "delivered"
            case .rejected: kind = "rejected"
            case .retryable: kind = "retryable"
            case nil: kind = "pending"
            }
            return ["attempt": .number(Double(send.attempt)), "device_id": .string(send.deviceID), "outcome": kind,
                    "error": send.outcome?.error.map(JSONValue.string) ?? .null]
        }
        return ["run": .number(Double(id)), "event_id": .string(event.clipID), "camera": .string(event.camera),
                "state": .string(phaseWord), "attempts": .number(Double(attempt)), "retryable": retryable,
                "error": error.map(JSONValue.string) ?? .null, "sends": .array(sent)]
    }
}
