import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// Where an accepted push goes: the device holding its token. `done` gets what the device
/// answered, or nil when no device and no app profile holds the token.
@MainActor
protocol PushDelivery: AnyObject {
    func deliver(_ push: AcceptedPush, done: @escaping @MainActor (PhoneAck?) -> Void)
    /// The app and environment a token belongs to, when a device or profile here holds it
    /// (so the stand-in answers BadDeviceToken / DeviceTokenNotForTopic as Apple would).
    func device(holding token: String) -> APNsDevice?
}

/// The phones on this machine: a running app that holds the token (its `PhoneListener`, found
/// in the phone directory) gets the push and says how it took it; when none runs but an app
/// profile holds the token (`push.json`), the push waits in that profile's inbox for the app's
/// next start, as the system keeps a notification for an app that is not running.
@MainActor
package final class PhoneDelivery: PushDelivery {
    /// How long a running app has to acknowledge.
    static let ackTimeoutMs = PhoneDeliveryLimits.ackTimeoutMs
    /// Who holds what, kept between pushes by a server (`watching`); read afresh by a one-shot.
    private let watch: TokenHolderWatch?

    init(watching: Bool = false) {
        watch = watching ? TokenHolderWatch() : nil
    }

    private var holders: TokenHolders { watch?.holders ?? TokenHolderWatch.read() }

    package func deliver(_ push: AcceptedPush, done: @escaping @MainActor (PhoneAck?) -> Void) {
        guard let phonePush = PhonePush(push) else { return done(.refused("the payload is not a JSON object; a device drops it")) }
        send(phonePush, done: done)
    }

    /// Sends `push` to the running device holding its token, else keeps it for the profile.
    func send(_ push: PhonePush, done: @escaping @MainActor (PhoneAck?) -> Void) {
        let holders = holders
        if let entry = holders.entry(push.token) {
            switch Self.connect(entry) {
            case .connected(let fd):
                guard PhoneSocket.sendLineNow(fd, push.line) else { close(fd); return done(.refused("the device is not taking pushes (its socket takes no more)")) }
                PhoneSocket.awaitLine(fd, timeoutMs: Self.ackTimeoutMs) { line in
                    done(line.map(PhoneAck.init(line:)) ?? .refused("the device did not answer within \(Self.ackTimeoutMs / 1000) s"))
                }
                return
            case .busy:
                // Its app runs but takes no connection now (stopped, or its queue is full): never waited on.
                return done(.refused("the device is not taking pushes (its socket's queue is full)"))
            case .absent: break
            }
        }
        guard let profile = holders.profile(push.token) else { return done(nil) }
        do throws(UsageError) {
            try PhoneInboxFile.keep(push, in: AppProfiles.directory(profile.appId))
            done(.kept)
        } catch {
            printError("hostshell: \(error.message)")
            done(.refused(error.message))
        }
    }

    package func device(holding token: String) -> APNsDevice? { holders.device(holding: token) }

    /// The device's entry for `token`, if its file is there and readable.
    static func readEntry(_ token: String) -> PhoneEntry? {
        let path = PhoneDirectory.entryPath(PhoneListener.directory, token: token)
        guard access(path, F_OK) == 0, let bytes = try? FileReading.bytes(path, limit: 4096) else { return nil }
        return PhoneEntry(fileText: String(decoding: bytes, as: UTF8.self))
    }

    /// A connection to the entry's device, made without waiting; a stale entry (its app ended
    /// without stopping) fails to connect and is removed.
    static func connect(_ entry: PhoneEntry) -> PhoneSocket.Connection {
        let outcome = PhoneSocket.connect(entry.socket)
        if case .absent = outcome { unlink(PhoneDirectory.entryPath(PhoneListener.directory, token: entry.token)) }
        return outcome
    }

    /// The running device's entry for `token` (something listens on its socket).
    package static func entry(_ token: String) -> PhoneEntry? {
        guard let entry = readEntry(token) else { return nil }
        switch connect(entry) {
        case .connected(let fd): close(fd); return entry
        case .busy: return entry
        case .absent: return nil
        }
    }

    /// Every running device's entry.
    static func entries() -> [PhoneEntry] {
        DirectoryNames.of(PhoneListener.directory).compactMap { PhoneDirectory.token(ofEntryName: $0) }.compactMap(entry)
    }
}

/// App profiles (`$XDG_DATA_HOME/hostshell/apps/<app id>/`) and the push tokens they hold.
package enum AppProfiles {
    package struct Profile {
        let appId: String
        let directory: String
        let record: PushRecord
    }

    static let root = String(cString: g_get_user_data_dir()) + "/hostshell/apps"

    static func profile(_ appId: String) -> Profile? {
        guard !appId.contains("/"), appId != ".", appId != ".." else { return nil }
        let directory = directory(appId)
        let path = directory + "/" + PushRecord.fileName
        guard access(path, F_OK) == 0, let bytes = try? FileReading.bytes(path, limit: PushRecord.maxFileBytes),
              let record = PushRecord(fileText: String(decoding: bytes, as: UTF8.self)) else { return nil }
        return Profile(appId: appId, directory: directory, record: record)
    }

    static func directory(_ appId: String) -> String { root + "/" + appId }

    static func all() -> [Profile] {
        DirectoryNames.of(root).filter { !$0.hasPrefix(".") }.compactMap(profile)
    }
}

/// A profile's inbox file (`PhoneInbox`): pushes kept while the app does not run.
package enum PhoneInboxFile {
    package static func path(_ directory: String) -> String { directory + "/" + PhoneInbox.fileName }

    static func read(_ directory: String) -> PhoneInbox {
        let path = path(directory)
        guard access(path, F_OK) == 0 else { return PhoneInbox() }
        guard let bytes = try? FileReading.bytes(path, limit: PhoneInbox.maxFileBytes) else {
            printError("hostshell: warning: \(TerminalText.escaped(path)) cannot be read or is too large; its pushes are not shown")
            return PhoneInbox()
        }
        let inbox = PhoneInbox(fileText: String(decoding: bytes, as: UTF8.self))
        if inbox.damagedLines > 0 {
            printError("hostshell: warning: \(inbox.damagedLines) damaged line(s) in \(TerminalText.escaped(path)) were skipped")
        }
        return inbox
    }

    static func keep(_ push: PhonePush, in directory: String) throws(UsageError) {
        var inbox = read(directory)
        inbox.keep(push)
        try AtomicFile.write(Array(inbox.fileText.utf8), to: path(directory), what: "the app's kept pushes")
    }

    /// The kept pushes, oldest first, and the file gone (they are shown now).
    package static func take(_ directory: String) -> [PhonePush] {
        let inbox = read(directory)
        unlink(path(directory))
        return inbox.pushes
    }
}
