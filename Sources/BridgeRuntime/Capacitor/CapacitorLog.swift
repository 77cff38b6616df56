/// A Capacitor page's records for the bridge log and the event stream (`--bridge-log`, `ctl
/// events`): one JSON line per message, credentials redacted as in the Studio bridge's log.
/// `contract` is `capacitor`, so a reader (and `replay`) can tell them from Studio's.
public enum CapacitorLog {
    /// A message the page posted and the results answered at once.
    public static func inbound(at time: Double, text: String, results: [CapacitorResult], latencyMicroseconds: Double) -> String {
        let message = (try? JSONParser.parse(text)).map(BridgeLog.redact) ?? .string(String(String.UnicodeScalarView(text.unicodeScalars.prefix(BridgeLog.rawTextScalars))))
        return line(["t": .number(time), "contract": "capacitor", "dir": "page-to-host", "message": message,
                     "results": .array(results.map { BridgeLog.redact($0.json) }),
                     "latencyUs": .number((latencyMicroseconds * 10).rounded() / 10)])
    }

    /// A result sent later (a host request answered, a listener's event).
    public static func outbound(at time: Double, result: CapacitorResult) -> String {
        line(["t": .number(time), "contract": "capacitor", "dir": "host-to-page", "result": BridgeLog.redact(result.json)])
    }

    /// The page's console output.
    public static func console(at time: Double, level: String, message: String) -> String {
        line(["t": .number(time), "contract": "capacitor", "dir": "console", "level": .string(level), "message": BridgeLog.redact(.string(message))])
    }

    /// A script error the page reported, a message refused, or a plugin's note.
    public static func note(at time: Double, kind: String, text: String) -> String {
        line(["t": .number(time), "contract": "capacitor", "dir": .string(kind), "message": .string(text)])
    }

    private static func line(_ object: JSONObject) -> String { JSONWriter.string(.object(object)) }
}
