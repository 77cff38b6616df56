import HostCore

/// Carries out what a page session decides: the one way a host page turns bridge messages and
/// native events into `PageSession` events, and its effects into work. The reply is returned to
/// whoever is answering the page; every other effect, in order, goes to the page's performer —
/// one object behind a protocol, never a set of callbacks.
@MainActor
public protocol PageEffectPerformer: AnyObject {
    /// Carries out one effect (never `.reply`, which the driver hands back to the caller).
    func perform(_ effect: PageEffect)
    /// Called after every event, once its effects were performed (state dumps, observers).
    func sessionChanged()
}

extension PageEffectPerformer {
    public func sessionChanged() {}
}

@MainActor
public final class PageDriver {
    private let loop: MachineLoop<PageSession>
    public var session: PageSession { loop.machine }
    /// Whoever carries out the effects; none yet (or any more) drops them, as a closed page does.
    public weak var performer: (any PageEffectPerformer)?

    public init(_ session: PageSession) { loop = MachineLoop(session) }

    /// Applies `event`, performs its effects and returns its reply, if it had one. An event
    /// handled from inside `perform` (a performer reacting at once) waits until the current
    /// event's effects are all performed (`MachineLoop`'s re-entrancy rule) and returns no reply:
    /// only a bridge message has one, and WebKit never delivers one from inside an effect.
    /// The performer hears `sessionChanged` once the queue is empty.
    @discardableResult
    public func handle(_ event: PageEvent) -> Reply? {
        var reply: Reply?
        let ran = loop.send(event) { [weak self] effect in
            if case .reply(let answer) = effect { reply = answer } else { self?.performer?.perform(effect) }
        }
        if ran { performer?.sessionChanged() }
        return reply
    }

    /// Decodes one bridge message from the page and answers it. A message that fails decoding
    /// is answered with its failure; one that yields no reply (none does today) is `unavailable`.
    public func receive(_ text: String) -> Reply {
        let event: PageEvent
        if BridgeMessageSize.exceeds(text) {
            return handle(.rejected(BridgeMessageSize.failure(bytes: text.utf8.count))) ?? .failure(id: nil, code: .malformed)
        }
        switch StudioMessageDecoder.decode(text, context: session.context) {
        case .success(let inbound): event = .received(inbound)
        case .failure(let failure): event = .rejected(failure)
        }
        return handle(event) ?? .failure(id: nil, code: .unavailable)
    }
}
