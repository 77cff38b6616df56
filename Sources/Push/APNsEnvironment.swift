/// Which APNs environment the app's tokens belong to (`hostshell capacitor --apns-environment`).
public enum APNsEnvironment: String, Sendable, Equatable, CaseIterable {
    case sandbox, production

    /// The flag's value: `sandbox` (or Xcode's word for it, `development`) or `production`,
    /// in any case; nil for anything else.
    public init?(flag: String) {
        switch flag.lowercased() {
        case "sandbox", "development": self = .sandbox
        case "production": self = .production
        default: return nil
        }
    }

    public static let flagError = "--apns-environment takes sandbox or production"
}
