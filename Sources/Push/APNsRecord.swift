import HostCore

/// One line of `--record FILE` (JSON lines): when, which listener and HTTP version, the headers
/// that matter (the provider token by its key, team and age — never the token itself), the
/// payload, the answer, a fault, and whether it was handed to a device.
public enum APNsRecord {
    public static func line(_ request: APNsRequest, _ decision: APNsDecision, environment: APNsEnvironment,
                            transport: String, time: Double, delivered: Bool?) -> String {
        line(request, decision, environment: environment, transport: transport, time: time, delivery: delivered.map(JSONValue.bool))
    }

    /// `delivery`: what became of an accepted push — true (an app got it), false (no device took
    /// it), "kept" (it waits for the app's next start; `PhoneAck.recordValue`).
    public static func line(_ request: APNsRequest, _ decision: APNsDecision, environment: APNsEnvironment,
                            transport: String, time: Double, delivery: JSONValue?) -> String {
        var headers = JSONObject()
        for name in ["apns-topic", "apns-push-type", "apns-priority", "apns-collapse-id", "apns-expiration", "apns-id"] {
            if let value = request.header(name) { headers[name] = .string(value) }
        }
        var object: JSONObject = [
            "time": .string(iso8601(time)),
            "environment": .string(environment.rawValue),
            "transport": .string(transport),
            "method": .string(request.method),
            "path": .string(request.path),
            "headers": .object(headers),
        ]
        if let provider = decision.provider {
            object["provider"] = ["kid": .string(provider.keyID), "iss": .string(provider.teamID),
                                  "iat": .number(provider.issuedAt), "age": .number((time - provider.issuedAt).rounded())]
        }
        object["payloadBytes"] = .number(Double(request.body.count))
        if let json = try? JSONParser.parse(bytes: request.body) {
            object["payload"] = json
        } else if !request.body.isEmpty {
            object["payloadText"] = .string(String(decoding: request.body.prefix(APNsLimits.voipPayloadBytes), as: UTF8.self))
        }
        var answer: JSONObject = ["status": .number(Double(decision.status)), "apns-id": .string(decision.apnsID)]
        if let reason = decision.reason { answer["reason"] = .string(reason.rawValue) }
        if let timestamp = decision.timestamp { answer["timestamp"] = .number(Double(timestamp)) }
        object["answer"] = .object(answer)
        if let fault = decision.fault { object["fault"] = .string(fault) }
        if decision.delayMs > 0 { object["delayMs"] = .number(Double(decision.delayMs)) }
        if !decision.warnings.isEmpty { object["warnings"] = .array(decision.warnings.map { .string($0) }) }
        if let delivery { object["delivered"] = delivery }
        return JSONWriter.string(.object(object))
    }

    /// `2026-12-02T00:10:00.123Z`.
    public static func iso8601(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let ms = Int(((seconds - Double(whole)) * 1000).rounded(.down))
        let (year, month, day, hour, minute, second) = CivilTime.components(whole)
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(ms, 3))Z"
    }
}
