import HostCore

/// The control interface's `events` stream: every bridge message in both directions (the same
/// records as `--bridge-log`, credentials redacted) and every change of the native state (the
/// top-level keys of `state` that changed, with their new values) and every warning for the
/// developer (a share the phone lets through with a credential, a damaged profile file kept
/// aside), one JSON object per line,
/// to each connection that asked. State is compared every 50 ms, and only while someone listens.
@MainActor
package final class EventStream {
    package enum Kind: String, CaseIterable { case bridge, state, warning, device }

    private struct Subscriber {
        let kinds: Set<Kind>
        let send: @MainActor (String) -> Void
    }
    private var subscribers: [Int: Subscriber] = [:]
    private var nextId = 0
    /// The app's whole state (set by the control handler), and the last one streamed.
    package var stateSource: (() -> JSONValue)?
    private var lastState: JSONObject?
    private var watching = false
    static let stateInterval: UInt32 = 50

    package init() {}

    package var isListening: Bool { !subscribers.isEmpty }

    func subscribe(_ kinds: Set<Kind>, _ send: @escaping @MainActor (String) -> Void) -> Int {
        nextId += 1
        subscribers[nextId] = Subscriber(kinds: kinds, send: send)
        if kinds.contains(.state) {
            lastState = nil  // the first comparison sends the whole state to the newcomer too
            watchState()
        }
        return nextId
    }

    func unsubscribe(_ id: Int) { subscribers[id] = nil }

    /// A bridge record, as `BridgeLog` writes it (a JSON object), for those who want them.
    func bridge(_ record: String) {
        guard record.hasPrefix("{"), subscribers.values.contains(where: { $0.kinds.contains(.bridge) }) else { return }
        publish(.bridge, #"{"event":"bridge","# + record.dropFirst())
    }

    /// A warning (`{"event":"warning","time":…, …fields}`), for those who want them.
    func warning(_ fields: JSONObject) {
        guard subscribers.values.contains(where: { $0.kinds.contains(.warning) }) else { return }
        var object: JSONObject = ["event": "warning", "time": .number(wallClockSeconds())]
        for member in fields.members { object[member.key] = member.value }
        publish(.warning, JSONWriter.string(.object(object)))
    }

    /// One of the simulator's controls acted (`{"event":"erased","time":…, …fields}`:
    /// locale, timezone, trusted-roots, recording-started, recording-stopped, erased).
    func device(_ event: String, _ fields: JSONObject) {
        guard subscribers.values.contains(where: { $0.kinds.contains(.device) }) else { return }
        var object: JSONObject = ["event": .string(event), "time": .number(wallClockSeconds())]
        for member in fields.members { object[member.key] = member.value }
        publish(.device, JSONWriter.string(.object(object)))
    }

    private func publish(_ kind: Kind, _ line: String) {
        for subscriber in subscribers.values where subscriber.kinds.contains(kind) { subscriber.send(line) }
    }

    private func watchState() {
        guard !watching else { return }
        watching = true
        tick()
    }

    private func tick() {
        guard subscribers.values.contains(where: { $0.kinds.contains(.state) }), let source = stateSource,
              let state = source().objectValue else {
            watching = false
            lastState = nil
            return
        }
        var changed = JSONObject()
        for member in state.members where lastState?[member.key] != member.value { changed[member.key] = member.value }
        if let last = lastState { for member in last.members where state[member.key] == nil { changed[member.key] = .null } }
        lastState = state
        if !changed.members.isEmpty {
            publish(.state, JSONWriter.string(["event": "state", "time": .number(wallClockSeconds()), "changed": .object(changed)]))
        }
        MainLoop.after(milliseconds: Self.stateInterval) { [weak self] in self?.tick() }
    }
}
