import CGtk
import HostCore
import ShellKit

/// `ctl erase` for a Capacitor app: its profile's website data, the secrets its plugins keep
/// (each plugin set that keeps any registers an eraser), then the app again from its start URL.
extension CapacitorApp: ErasableApp {
    /// Removes the secrets a plugin set keeps for the app with this id and data directory, and
    /// names what went (HomeSec's plugins register theirs when they are chosen).
    package static var secretErasers: [@MainActor (_ appId: String, _ dataDirectory: String) -> [String]] = []

    package var erasableSessions: [NetworkSessionPointer] {
        webkit_web_view_get_network_session(page.view).map { [$0] } ?? []
    }

    package func eraseSecrets() -> [String] {
        Self.secretErasers.flatMap { $0(launch.appId, launch.dataDirectory) }
    }

    package func restartAtStartPage() {
        loadingEvent(.start)
        page.load(launch.startURL)
    }
}
