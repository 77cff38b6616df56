import HostCore
import StudioContract
import Testing

/// A machine that logs the events it reduced; each event `e` asks for the effects `e.1`, `e.2`.
private struct EchoMachine: Machine {
    private(set) var reduced: [String] = []

    mutating func reduce(_ event: String) -> [String] {
        reduced.append(event)
        return ["\(event).1", "\(event).2"]
    }
}

@Suite("Machine loop: effects in order; an event raised while they are performed waits for them")
struct MachineLoopTests {
    @Test("an event sent from an effect is reduced after the current event's effects, to its own perform, and nested sends return at once")
    func nestedSendIsQueued() {
        let loop = MachineLoop(EchoMachine())
        var performed: [String] = []
        var nestedPerformed: [String] = []
        var nestedRan: [Bool] = []
        let ran = loop.send("a") { effect in
            performed.append(effect)
            #expect(loop.isPerforming)
            if effect == "a.1" {
                nestedRan.append(loop.send("b") { nestedPerformed.append($0) })
                #expect(loop.machine.reduced == ["a"], "b is not reduced in the middle of a's effects")
                #expect(nestedPerformed.isEmpty)
            }
        }
        #expect(ran && nestedRan == [false])
        #expect(performed == ["a.1", "a.2"], "b's effects are not a's caller's")
        #expect(nestedPerformed == ["b.1", "b.2"], "b's effects go to the perform b was sent with")
        #expect(loop.machine.reduced == ["a", "b"])
        #expect(!loop.isPerforming)
    }

    @Test("events raised meanwhile are reduced in the order they were sent, however deep they were raised")
    func queuedInOrder() {
        let loop = MachineLoop(EchoMachine())
        var performed: [String] = []
        func record(_ effect: String) {
            performed.append(effect)
            switch effect {
            case "a.1": loop.send("b", perform: record); loop.send("c", perform: record)
            case "b.2": loop.send("d", perform: record)  // raised by a queued event's effect: after c
            default: break
            }
        }
        loop.send("a", perform: record)
        #expect(loop.machine.reduced == ["a", "b", "c", "d"])
        #expect(performed == ["a.1", "a.2", "b.1", "b.2", "c.1", "c.2", "d.1", "d.2"])
    }

    @Test("each effect is performed with the machine as its own event left it; after the loop, sends run at once again")
    func stateAtPerform() {
        let loop = MachineLoop(EchoMachine())
        var seen: [[String]] = []
        loop.send("a") { _ in seen.append(loop.machine.reduced) }
        #expect(seen == [["a"], ["a"]])
        #expect(loop.send("b") { _ in })
        #expect(loop.machine.reduced == ["a", "b"])
    }

    @Test("a page session runs in the loop like any machine")
    func pageSessionInTheLoop() {
        let loop = MachineLoop(PageSession(context: .main, profile: .phone, available: [.nativeNavigation]))
        var effects: [PageEffect] = []
        loop.send(.documentCommitted) { effects.append($0) }
        guard case .success(let inbound) = StudioMessageDecoder.decode(envelope("config/get", id: "c")) else {
            Issue.record("config/get did not decode"); return
        }
        loop.send(.received(inbound)) { effects.append($0) }
        #expect(loop.machine.negotiated)
        #expect(effects.count == 1, "config/get is answered, and asks for nothing else: \(effects)")
    }
}
