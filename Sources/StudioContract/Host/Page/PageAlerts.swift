import HostCore

/// A page's native alert (§4 Alerts): one at a time across the app, shown only where a person
/// can see the page, ended only by a button press (reported with the ids the host was given)
/// or withdrawn without a report (`alert/cancel`, its document or presentation gone).
public struct PageAlerts: Machine, Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// `alert/present`; `seen`: a person can see the page now.
        case present(AlertRequest, id: String?, seen: Bool)
        /// `alert/cancel`: withdraw `alertId` if it is the one showing.
        case cancel(alertId: String, id: String?)
        /// The person pressed a button of the alert `alertId`.
        case answered(alertId: String, actionId: String)
        /// Whether another page of the app shows an alert (then this page's is `unavailable`).
        case shownElsewhere(Bool)
        /// What the page showed is gone (its document, or its presentation): take the alert away.
        case withdraw
    }

    /// Replies, `.showAlert`, `.withdrawAlert`, and `.send` of `alert/action`.
    public typealias Effect = PageEffect

    /// `nativeAlerts` is offered to this page.
    public let offered: Bool
    /// The alert showing for this page, if any: only one at a time, only a button press ends it.
    public private(set) var alert: AlertRequest?
    /// Another page of the app shows an alert.
    public private(set) var shownElsewhere = false

    public init(offered: Bool) { self.offered = offered }

    public mutating func reduce(_ event: Event) -> [PageEffect] {
        switch event {
        case .present(let request, let id, let seen):
            guard offered, alert == nil, !shownElsewhere, seen else { return [.reply(.failure(id: id, code: .unavailable))] }
            alert = request
            return [.reply(.ok(id)), .showAlert(request)]

        case .cancel(let alertId, let id):
            // Withdrawing what is not showing is ignored (§3).
            guard alert?.alertId == alertId else { return [.reply(.ok(id))] }
            alert = nil
            return [.reply(.ok(id)), .withdrawAlert(alertId: alertId)]

        case .answered(let alertId, let actionId):
            // A late or foreign answer (the alert was withdrawn, or never had that button) is dropped.
            guard let alert, alert.alertId == alertId, alert.actions.contains(where: { $0.id == actionId }) else { return [] }
            self.alert = nil
            return [.send(.alertAction(alertId: alertId, actionId: actionId))]

        case .shownElsewhere(let shown):
            shownElsewhere = shown
            return []

        case .withdraw:
            guard let alert else { return [] }
            self.alert = nil
            return [.withdrawAlert(alertId: alert.alertId)]
        }
    }
}
