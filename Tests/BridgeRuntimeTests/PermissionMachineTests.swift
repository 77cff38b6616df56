import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// Issue 15 item 6: what is asked, remembered, defaulted, and what happens with no one to ask.
@Suite("Permissions: asked once, remembered per profile, denied with no one to ask")
struct PermissionMachineTests {
    typealias M = PermissionMachine

    @Test("attended: a question prompts; the person's answer settles it and is remembered; the next one comes from memory")
    func personAnswers() {
        var machine = M(attended: true)
        #expect(machine.reduce(.asked(id: 1, kinds: [.geolocation])) == [.prompt(.init(id: 1, kinds: [.geolocation]))])
        #expect(machine.prompted?.id == 1)
        #expect(machine.reduce(.personAnswered(id: 2, grant: true)) == [], "an answer for another prompt is ignored")
        #expect(machine.reduce(.personAnswered(id: 1, grant: true)) == [.answer(id: 1, grant: true), .save([.geolocation: true])])
        #expect(machine.prompted == nil)
        #expect(machine.reduce(.asked(id: 3, kinds: [.geolocation])) == [.answer(id: 3, grant: true)])
        #expect(machine.answered.map(\.how) == [.person, .remembered])
        // A denial is remembered too.
        _ = machine.reduce(.asked(id: 4, kinds: [.notifications]))
        #expect(machine.reduce(.personAnswered(id: 4, grant: false)) == [.answer(id: 4, grant: false), .save([.geolocation: true, .notifications: false])])
        #expect(machine.reduce(.asked(id: 5, kinds: [.notifications])) == [.answer(id: 5, grant: false)])
    }

    @Test("one prompt at a time: the others wait, and those the answer covers are settled with it")
    func queue() {
        var machine = M(attended: true)
        _ = machine.reduce(.asked(id: 1, kinds: [.camera]))
        #expect(machine.reduce(.asked(id: 2, kinds: [.camera])) == [])
        #expect(machine.reduce(.asked(id: 3, kinds: [.microphone, .camera])) == [])
        #expect(machine.waiting.count == 3)
        let effects = machine.reduce(.personAnswered(id: 1, grant: true))
        #expect(effects == [.answer(id: 1, grant: true), .save([.camera: true]), .answer(id: 2, grant: true),
                            .prompt(.init(id: 3, kinds: [.camera, .microphone]))])
        // Camera and microphone together: any remembered denial denies the whole.
        #expect(machine.reduce(.personAnswered(id: 3, grant: false)) == [.answer(id: 3, grant: false), .save([.camera: false, .microphone: false])])
        var mixed = M(attended: true, remembered: [.camera: true, .microphone: false])
        #expect(mixed.reduce(.asked(id: 9, kinds: [.camera, .microphone])) == [.answer(id: 9, grant: false)])
        var partial = M(attended: true, remembered: [.camera: true])
        #expect(partial.reduce(.asked(id: 9, kinds: [.camera, .microphone])) == [.prompt(.init(id: 9, kinds: [.camera, .microphone]))])
    }

    @Test("the control interface answers the open prompt, or the next question")
    func control() {
        var machine = M(attended: true)
        _ = machine.reduce(.asked(id: 1, kinds: [.clipboard]))
        #expect(machine.reduce(.controlAnswered(grant: true)) == [.closePrompt(id: 1), .answer(id: 1, grant: true), .save([.clipboard: true])])
        #expect(machine.reduce(.controlAnswered(grant: false)) == [])
        #expect(machine.controlAnswers == [false])
        #expect(machine.reduce(.asked(id: 2, kinds: [.pointerLock])) == [.answer(id: 2, grant: false), .save([.clipboard: true, .pointerLock: false])])
        #expect(machine.answered.map(\.how) == [.control, .control])
        for _ in 0..<20 { _ = machine.reduce(.controlAnswered(grant: true)) }
        #expect(machine.controlAnswers.count == M.queuedControlAnswers)
    }

    @Test("unattended (no display of its own, a kiosk): denied at once and not remembered, unless the control interface answered first")
    func unattended() {
        var machine = M(attended: false)
        #expect(machine.reduce(.asked(id: 1, kinds: [.geolocation])) == [.answer(id: 1, grant: false)])
        #expect(machine.remembered.isEmpty && machine.prompted == nil)
        #expect(machine.answered.last?.how == .unattended)
        #expect(machine.reduce(.controlAnswered(grant: true)) == [])
        #expect(machine.reduce(.asked(id: 2, kinds: [.geolocation])) == [.answer(id: 2, grant: true), .save([.geolocation: true])])
        #expect(machine.reduce(.asked(id: 3, kinds: [.geolocation])) == [.answer(id: 3, grant: true)], "remembered from the control answer")
        #expect(machine.reduce(.asked(id: 4, kinds: [.camera])) == [.answer(id: 4, grant: false)])
    }

    @Test("a withdrawn question closes its prompt and the next one shows")
    func withdrawn() {
        var machine = M(attended: true)
        _ = machine.reduce(.asked(id: 1, kinds: [.deviceInfo]))
        _ = machine.reduce(.asked(id: 2, kinds: [.mediaKeys]))
        #expect(machine.reduce(.withdrawn(id: 2)) == [])
        _ = machine.reduce(.asked(id: 3, kinds: [.screen]))
        #expect(machine.reduce(.withdrawn(id: 1)) == [.closePrompt(id: 1), .prompt(.init(id: 3, kinds: [.screen]))])
        #expect(machine.reduce(.withdrawn(id: 7)) == [])
    }

    @Test("the profile's file: written and read back; damage and unknown entries are asked again")
    func file() {
        let text = M.file([.camera: true, .notifications: false])
        #expect(text == #"{"camera":"granted","notifications":"denied"}"#)
        #expect(M.parse(text) == [.camera: true, .notifications: false])
        #expect(M.parse("{nope") == [:])
        #expect(M.parse(#"{"camera":"maybe","teleport":"granted","clipboard":"granted"}"#) == [.clipboard: true])
        #expect(M.parse("[]") == [:])
    }

    @Test("navigator.permissions.query reports the remembered answer, else prompt; names it does not know are WebKit's")
    func query() {
        let machine = M(attended: true, remembered: [.geolocation: true, .camera: false])
        #expect(PermissionKind(queryName: "geolocation").map(machine.queryState) == .granted)
        #expect(PermissionKind(queryName: "camera").map(machine.queryState) == .denied)
        #expect(PermissionKind(queryName: "push").map(machine.queryState) == .prompt)
        #expect(PermissionKind(queryName: "display-capture") == .screen)
        #expect(PermissionKind(queryName: "Geolocation") == nil && PermissionKind(queryName: "midi") == nil)
    }

    @Test("state and prompt wording")
    func wording() {
        var machine = M(attended: true, remembered: [.geolocation: true])
        _ = machine.reduce(.asked(id: 1, kinds: [.microphone, .camera]))
        let state = machine.json.objectValue
        #expect(state?["pending"] == ["kinds": ["camera", "microphone"], "asker": "page", "prompted": true])
        #expect(state?["remembered"] == ["geolocation": "granted"])
        let prompt = M.prompt([.camera, .microphone], server: "North Studio")
        #expect(prompt.heading == "Allow North Studio to use your camera and use your microphone?")
        #expect(M.prompt([.geolocation], server: "S").heading == "Allow S to know your location?")
        #expect(PermissionKind.allCases.allSatisfy { !$0.use.isEmpty })
    }
}
