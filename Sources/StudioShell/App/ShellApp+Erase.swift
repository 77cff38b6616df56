import CGtk
import HostCore
import ShellKit

/// `ctl erase` for a Studio server: the server's website data (its own network session), its
/// sign-in credential (keyring and file), then Studio again from its start page. Other saved
/// servers keep theirs: each has its own session and credential.
extension ShellApp: ErasableApp {
    package var erasableSessions: [NetworkSessionPointer] { [session.networkSession] }

    package func eraseSecrets() -> [String] {
        credentials.deleteAfterWrites(session.record.id)
        return ["the sign-in credential of \(session.record.id)"]
    }

    package func restartAtStartPage() { session.verifyAndLoad() }
}
