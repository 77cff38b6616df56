import HostCore
import StudioContract
import Testing

@Suite("Native media intake, alone: the credential, one intake, its completion")
struct NativeMediaIntakeTests {
    static let request = MediaIntakeRequest(requestId: "i1")

    static func available(_ payload: [PageEffect]) -> JSONValue? {
        guard case .reply(.success(_, let object))? = payload.first else { return nil }
        return object["available"]
    }

    @Test("available only with a credential and the capability; an intake needs both")
    func availability() {
        var intake = NativeMediaIntake(context: .main, offered: true)
        #expect(Self.available(intake.reduce(.status(id: "s"))) == .bool(false))
        #expect(intake.reduce(.start(Self.request, id: "m")) == [.reply(.failure(id: "m", code: .unavailable))], "signed out")
        _ = intake.reduce(.credentialAvailable(true))
        #expect(Self.available(intake.reduce(.status(id: "s"))) == .bool(true))
        var notOffered = NativeMediaIntake(context: .main, offered: false)
        _ = notOffered.reduce(.credentialAvailable(true))
        #expect(Self.available(notOffered.reduce(.status(id: "s"))) == .bool(false))
    }

    @Test("one intake at a time; its completion is reported once, to a ready Studio, with at most 1000 uploads")
    func completion() {
        var intake = NativeMediaIntake(context: .main, offered: true)
        _ = intake.reduce(.credentialAvailable(true))
        #expect(intake.reduce(.start(Self.request, id: "m")) == [.reply(.ok("m")), .startMediaIntake(Self.request)])
        #expect(intake.reduce(.start(MediaIntakeRequest(requestId: "i2"), id: "m")) == [.reply(.failure(id: "m", code: .unavailable))])
        #expect(intake.reduce(.finished(requestId: "i2", outcome: .completed, uploadedCount: 1, studioReady: true)).isEmpty)
        #expect(intake.reduce(.finished(requestId: "i1", outcome: .partial, uploadedCount: 5000, studioReady: true))
            == [.send(.mediaIntakeCompleted(requestId: "i1", outcome: .partial, uploadedCount: 1000))])
        #expect(intake.reduce(.finished(requestId: "i1", outcome: .completed, uploadedCount: 1, studioReady: true)).isEmpty, "once")
        _ = intake.reduce(.start(MediaIntakeRequest(requestId: "i3"), id: nil))
        #expect(intake.reduce(.finished(requestId: "i3", outcome: .cancelled, uploadedCount: 0, studioReady: false)).isEmpty)
        #expect(intake.requestId == nil, "finished all the same: another may start")
    }
}
