/// The simulator's settings given when an app starts (`open`, `capacitor`): `--locale LL-CC`,
/// `--timezone AREA/CITY` and `--trust-root-cert FILE.pem` (repeatable). They are checked as
/// the controls check them (`DeviceControl`); the app applies them before its first page.
public struct DeviceLaunchOptions: Sendable, Equatable {
    public var locale: String?
    public var timeZone: String?
    public var rootCertificates: [String] = []

    public init() {}

    /// The flags, with their values and help (`hostshell open --help`).
    public static let flags: [(name: String, value: String, help: String)] = [
        ("--locale", "LL-CC", "the page's locale, e.g. fr-FR (navigator.language, Intl, Accept-Language)"),
        ("--timezone", "AREA/CITY", "the page's time zone, e.g. Europe/Paris (from /usr/share/zoneinfo)"),
        ("--trust-root-cert", "FILE.pem", "trust this private root for the app's servers (repeatable)"),
    ]

    public static func owns(_ flag: String) -> Bool { flags.contains { $0.name == flag } }

    /// Takes `flag`'s `value` (the next word), refusing a missing or malformed one.
    package mutating func take(_ flag: String, _ value: String?) throws(UsageError) {
        guard let value, !value.isEmpty, !value.hasPrefix("--") else {
            throw UsageError("\(flag) takes \(Self.flags.first { $0.name == flag }?.value ?? "a value")")
        }
        switch flag {
        case "--locale":
            if case .failure(let error) = LocaleTag.parse(value) { throw UsageError("--locale: \(error.message)") }
            locale = value
        case "--timezone":
            if let problem = TimeZoneRule.shapeProblem(value) { throw UsageError("--timezone: \(problem)") }
            timeZone = value
        case "--trust-root-cert":
            rootCertificates.append(value)
        default:
            throw UsageError("\(flag) is not one of \(Self.flags.map(\.name).joined(separator: ", "))")
        }
    }
}
