import BridgeRuntime

/// Where an accepted push goes: the device holding its token. True when it was handed to one.
@MainActor
protocol PushDelivery: AnyObject {
    func deliver(_ push: AcceptedPush) -> Bool
}

/// The delivery until a phone side exists (issue 14 items 2 and 5): it keeps each token's pushes
/// in memory (the last `keep`) and says so — it does not reach an app or a desktop notification,
/// and never pretends to. Answers false: nothing was handed to a device.
@MainActor
final class InboxDelivery: PushDelivery {
    private(set) var inbox: [String: [AcceptedPush]] = [:]
    let keep: Int
    init(keep: Int = 100) { self.keep = keep }

    func deliver(_ push: AcceptedPush) -> Bool {
        inbox[push.token, default: []].append(push)
        if inbox[push.token]!.count > keep { inbox[push.token]!.removeFirst() }
        return false
    }
}
