import CGtk
import Foundation
import Glibc
import HostCore

/// What the fleet hands an app's opener: where the app's control socket goes, its throw-away
/// profile's root (nil: the app's own profile), what the process decided once (rendering, the
/// display), and how the app tells the fleet it ended on its own (its window closed, it quit).
@MainActor
package struct FleetOpening {
    package let control: String
    package let profileRoot: String?
    package let rendering: RenderingChoice?
    /// The fleet runs on a display it started itself: no one answers the pages' questions.
    package let ownDisplay: Bool
    package let ended: @MainActor () -> Void
    /// A prewarmed slot of the fleet's pool for a throw-away open, out of the pool for good
    /// (nil: none ready, or the open is not throw-away). An opener that can run its app on a
    /// `PrewarmedView` asks once, when it builds its page.
    package let takeSlot: @MainActor () -> PrewarmedView?

    /// The app's control server on its socket: the core's `ControlHandler`, except for the
    /// commands whose effect is the whole process's in a fleet (`FleetRules.refusal`).
    package func serve(_ app: any HostedApp, allowEval: Bool) throws(UsageError) -> ControlServer {
        let handler = ControlHandler(app: app, allowEval: allowEval)
        return try ControlServer(path: control, events: app.environment.events) { request, answer in
            if let refusal = FleetRules.refusal(of: request.command) { return answer(ControlResponse.failure(request.id, ControlError(refusal))) }
            handler.handle(request, answer: answer)
        }
    }
}

/// An app an opener read from its arguments, not started yet: its name and profile for the
/// book (two apps never share a profile), and how to start it.
@MainActor
package struct FleetLaunch {
    package let name: String
    package let profile: String
    package let start: @MainActor () throws(UsageError) -> FleetMember

    package init(name: String, profile: String, start: @escaping @MainActor () throws(UsageError) -> FleetMember) {
        self.name = name; self.profile = profile; self.start = start
    }
}

/// A running app of the fleet: the app, its control server, and its opener's way to end it
/// (pages closed, window gone, what it holds let go).
@MainActor
package final class FleetMember {
    package let app: any HostedApp
    let control: ControlServer
    let finish: @MainActor () -> Void

    package init(app: any HostedApp, control: ControlServer, finish: @escaping @MainActor () -> Void) {
        self.app = app; self.control = control; self.finish = finish
    }
}

/// Reads an app's arguments (those its hostshell command takes) into a launch.
package typealias FleetOpener = @MainActor (_ arguments: [String], _ opening: FleetOpening) throws(UsageError) -> FleetLaunch

/// A fleet's control socket and its apps (`hostshell fleet`): carries out `FleetCommand`s with
/// the openers the executable registered, keeps the `FleetBook`, and ends an app — by request
/// or on its own — without touching another.
@MainActor
package final class FleetHost {
    private var book = FleetBook()
    private var members: [String: FleetMember] = [:]
    private var windowWatches: [String: SignalConnection] = [:]
    private let openers: [String: FleetOpener]
    private let socket: String
    private let rendering: RenderingChoice?
    private let ownDisplay: Bool
    /// Where throw-away profiles go, one directory per app, removed with the app.
    private let throwAwayRoot: String
    private let events = EventStream()
    private var server: ControlServer?
    /// Prewarmed throw-away slots (`--pool`).
    private var slots: FleetSlots?

    package init(socket: String, openers: [String: FleetOpener], rendering: RenderingChoice?, ownDisplay: Bool,
                 pool: Int = FleetPool.defaultSize) throws(UsageError) {
        self.socket = socket
        self.openers = openers
        self.rendering = rendering
        self.ownDisplay = ownDisplay
        throwAwayRoot = NSTemporaryDirectory() + "hostshell-fleet-\(getpid())-\(UUID().uuidString.prefix(8))"
        server = try ControlServer(path: socket, events: events) { [weak self] request, answer in
            guard let self else { return answer(ControlResponse.failure(request.id, ControlError("the fleet is ending"))) }
            answer(self.handle(request))
        }
        slots = FleetSlots(size: pool) { [weak self] in (self?.book.entries.count ?? 0, self?.book.limit ?? 0) }
    }

    private func handle(_ request: ControlRequest) -> String {
        do throws(ControlError) {
            switch try FleetCommand.decode(request.command, kinds: openers.keys.sorted()) {
            case .list:
                var list = book.json.objectValue ?? [:]
                list["pool"] = slots?.json ?? .null
                return ControlResponse.ok(request.id, .object(list))
            case .close(let id):
                try close(id)
                return ControlResponse.ok(request.id, ["closed": .string(id)])
            case .open(let kind, let arguments, let throwAway):
                return ControlResponse.ok(request.id, try open(kind, arguments, throwAway: throwAway))
            }
        } catch {
            return ControlResponse.failure(request.id, error)
        }
    }

    private func open(_ kind: String, _ arguments: [String], throwAway: Bool) throws(ControlError) -> JSONValue {
        try FleetRules.check(arguments: arguments)
        guard let opener = openers[kind] else { throw ControlError("open: no \(kind) apps in this fleet") }
        let id = book.nextId
        guard let control = FleetRules.appSocket(fleetSocket: socket, id: id, maxBytes: UnixSocket.maxPathBytes) else {
            throw ControlError("open: the app's socket (\(socket).\(id)) would be longer than \(UnixSocket.maxPathBytes) bytes; start the fleet on a shorter path")
        }
        let root = throwAway ? throwAwayRoot + "/" + id : nil
        func removeRoot() { if let root { try? FileManager.default.removeItem(atPath: root) } }
        var pooled = false
        let opening = FleetOpening(control: control, profileRoot: root, rendering: rendering, ownDisplay: ownDisplay, ended: { [weak self] in
            self?.ended(id)
        }, takeSlot: { [weak self] in
            let view = self?.slots?.take(throwAway: throwAway)
            pooled = pooled || view != nil
            return view
        })
        let launch: FleetLaunch
        do throws(UsageError) { launch = try opener(arguments, opening) } catch {
            removeRoot()
            throw ControlError("open: \(error.message)")
        }
        var entry: FleetBook.Entry
        do throws(ControlError) {
            entry = try book.reserve(kind: kind, name: launch.name, profile: launch.profile, socket: control, throwAway: throwAway)
        } catch {
            removeRoot()
            throw error
        }
        let member: FleetMember
        do throws(UsageError) { member = try launch.start() } catch {
            _ = try? book.remove(entry.id)
            removeRoot()
            throw ControlError("open: \(error.message)")
        }
        members[id] = member
        book.opened(id, pooled: pooled)
        entry.open = true
        entry.pooled = pooled
        // The person closing the app's window ends that app, not the fleet: closed as a request
        // would (the window kept until its app has let go of it). An app that answers the
        // close itself (Studio saves its size, then quits) does so first and tells `ended`.
        windowWatches[id] = onCloseRequest(member.app.windowWidget) { [weak self] in
            self?.ended(id)
            return true
        }
        printError("hostshell fleet: app \(id) (\(TerminalText.escaped(launch.name))) open, control socket \(TerminalText.escaped(control))")
        return FleetBook.json(entry)
    }

    /// Ends app `id`: its control socket first (no request reaches a closing app), then the app
    /// as its opener ends it, then its throw-away profile.
    private func close(_ id: String) throws(ControlError) {
        let entry = try book.remove(id)
        guard let member = members.removeValue(forKey: id) else { return }
        if let watch = windowWatches.removeValue(forKey: id) { watch.disconnect() }
        member.control.stop()
        member.finish()
        if entry.throwAway { try? FileManager.default.removeItem(atPath: throwAwayRoot + "/" + id) }
        slots?.refill()  // room for a slot again, if the fleet was full
        printError("hostshell fleet: app \(id) (\(TerminalText.escaped(entry.name))) closed")
    }

    /// App `id` ended on its own (its window's close, the app quit): closed like a request would,
    /// once whatever is under way has returned.
    private func ended(_ id: String) {
        guard book.entries.contains(where: { $0.id == id && $0.open }) else { return }
        MainLoop.whenIdle { [weak self] in try? self?.close(id) }
    }

    /// Ends every app, then the fleet's socket: the process is ending.
    package func stop() {
        slots?.stop()
        for entry in book.entries { try? close(entry.id) }
        server?.stop()
        server = nil
        try? FileManager.default.removeItem(atPath: throwAwayRoot)
    }
}
