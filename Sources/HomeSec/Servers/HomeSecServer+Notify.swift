/// What the glue does for the server's notifier.
public enum HomeSecNotifyEffect: Sendable, Equatable {
    /// POST this request; report the answer (or the transport failure) with `answered`.
    case send(run: Int, deviceID: String, request: HomeSecNotifier.Outbound)
    /// Call `beginAttempt` for this run again after this many seconds.
    case retry(run: Int, afterSeconds: Double)
}

/// The notifier's part of the reference server: every event raised, each with its run.
public struct HomeSecNotifyState: Sendable {
    public internal(set) var runs: [HomeSecNotifyRun] = []
    /// Runs raised whose first attempt the glue has not begun.
    var raised: [Int] = []
    public init() {}
}

extension HomeSecServer {
    /// `POST /__test/event` (a test hook; HomeSec raises alerts from its pipeline): an event with
    /// optional `camera` (default: the first camera), `clip_id` (default: a new one),
    /// `activity_type`, `risk_level` and `summary`. Answers 202 with the event's id, its route and
    /// its run; the notification goes out at once.
    mutating func raiseEvent(body: [UInt8], now: Double, entropy: [UInt8]) -> HomeSecAnswer {
        var check = HomeSecValidation()
        guard let object = check.object(body.isEmpty ? Array("{}".utf8) : body) else { return check.answer }
        func text(_ key: String) -> String? {
            if case .set(let value) = check.optionalText(object, key), let value, !HomeSecValidation.stripped(value).isEmpty { return value }
            return nil
        }
        let camera = text("camera").map(HomeSecValidation.stripped) ?? options.cameras.first?.name ?? "camera"
        let clip = text("clip_id").map(HomeSecValidation.stripped)
            ?? "\(camera)_" + Array(entropy.prefix(6)).map { byte in
                let digits = Array("0123456789abcdef")
                return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }.joined()
        var summary: String?
        if case .set(let value) = check.optionalText(object, "summary") { summary = value }
        let event = HomeSecEvent(clipID: clip, camera: camera, activityType: text("activity_type"), riskLevel: text("risk_level"),
                                 summary: summary, time: now)
        guard check.isEmpty else { return check.answer }
        let id = notify.runs.count + 1
        notify.runs.append(HomeSecNotifyRun(id: id, event: event))
        notify.raised.append(id)
        let targets = options.apns.map { HomeSecNotifier.targets(devices.devices, config: $0).count }
        return .json(202, ["run": .number(Double(id)), "event_id": .string(clip), "route": .string(HomeSecNotifier.route(event)),
                           "targets": targets.map { .number(Double($0)) } ?? .null,
                           "notifier": options.apns == nil ? "not configured" : "apns_mobile"])
    }

    /// The runs raised since the last call, for the glue to begin.
    public mutating func takeRaisedRuns() -> [Int] {
        defer { notify.raised = [] }
        return notify.raised
    }

    /// Begins a run's next attempt at `now` with the provider token of that moment (nil when the
    /// credentials are missing): one `send` per target, or none when the run ends at once.
    public mutating func beginAttempt(run id: Int, providerToken: String?, now: Double) -> [HomeSecNotifyEffect] {
        guard let index = notify.runs.firstIndex(where: { $0.id == id }) else { return [] }
        var run = notify.runs[index]
        defer { notify.runs[index] = run }
        guard case .waiting = run.phase else { return [] }
        guard let config = options.apns else {
            run.give(up: "no APNs notifier is configured (serve --homesec --apns-bundle-id …)")
            return []
        }
        guard let providerToken else {
            run.give(up: HomeSecNotifier.missingCredentials)
            return []
        }
        guard let payload = HomeSecNotifier.payload(run.event) else {
            run.give(up: "APNs payload exceeds 4096-byte limit even without notification body")
            return []
        }
        let targets = HomeSecNotifier.targets(devices.devices, config: config)
        guard run.begin(targets: targets.map(\.id), now: now) else { return [] }
        return targets.map { device in
            .send(run: id, deviceID: device.id,
                  request: HomeSecNotifier.request(config: config, deviceToken: device.apnsToken, providerToken: providerToken, payload: payload))
        }
    }

    /// One device's answer: recorded on the device (disabled when its token is rejected for
    /// good) and on the run; once the attempt is complete, a `retry` when one is due.
    public mutating func answered(run id: Int, deviceID: String, outcome: HomeSecNotifier.Outcome) -> [HomeSecNotifyEffect] {
        guard let index = notify.runs.firstIndex(where: { $0.id == id }), notify.runs[index].record(deviceID: deviceID, outcome: outcome) else { return [] }
        let sentAt = notify.runs[index].attemptStartedAt
        devices.recordPush(id: deviceID, error: outcome.error, at: sentAt)
        if outcome.kind == .rejected { _ = devices.disable(id: deviceID, now: sentAt) }
        guard let delay = notify.runs[index].settle() else { return [] }
        return [.retry(run: id, afterSeconds: delay)]
    }
}
