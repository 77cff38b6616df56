import HostCore

extension ScreenError {
    /// The identity check failed (`message` says how, in the check's own words).
    public static func identity(_ failure: IdentityFailureKind, server: String, message: String) -> ScreenError {
        switch failure {
        case .insecure:
            return ScreenError(.insecure, title: "The connection to \(server) isn't secure", detail: message,
                               icon: "channel-insecure-symbolic")
        case .unreachable:
            return ScreenError(.unreachable, title: "Can't reach \(server)",
                               detail: message + "\nCheck that the server is running and this computer is on its network.",
                               icon: "network-offline-symbolic")
        case .refused:
            return ScreenError(.notIdentified, title: "\(server) did not say who it is", detail: message,
                               icon: "dialog-warning-symbolic")
        }
    }
}
