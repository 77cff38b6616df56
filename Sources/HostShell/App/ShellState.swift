import BridgeRuntime

/// The running app's native state as JSON — what `open --check` prints and the control
/// interface's `state` returns: the server shown and the saved ones, what the window shows
/// (page, loading or error with its text), and the page's negotiated state and chrome.
@MainActor
enum ShellState {
    static func json(_ app: ShellApp) -> JSONValue {
        let session = app.session
        var state = StateReport.json(session.page.session).objectValue ?? JSONObject()
        state["server"] = ["id": .string(session.record.id), "name": .string(session.record.name),
                           "address": .string(session.record.address.normalized),
                           "installationId": .string(session.record.identity.installationId)]
        state["servers"] = .array(app.records.map { .string($0.id) })
        state["screen"] = .string(session.view.screen)
        let status = session.view.statusText
        state["status"] = session.view.isRevealed ? .null : ["title": .string(status.title), "detail": .string(status.detail)]
        state["url"] = session.page.uri.map(JSONValue.string) ?? .null
        state["auth"] = session.auth.stateJSON
        state["uploads"] = session.uploadsJSON
        state["notices"] = .array(app.notices.map(JSONValue.string))
        state["system"] = session.systemJSON
        state["qrScan"] = .bool(session.qrScan != nil)
        state["presentation"] = session.presentations.stateJSON
        state["rendering"] = RenderingSetup.choice?.json ?? .null
        if let kiosk = app.kiosk {
            var report = kiosk.stateJSON.objectValue ?? JSONObject()
            report["retry"] = session.retryState
            state["kiosk"] = .object(report)
        }
        let menus = session.activeMenus
        state["menus"] = ["armed": menus.armedMenuId.map(JSONValue.string) ?? .null,
                          "triggers": .array(menus.triggerIds.map(JSONValue.string)),
                          "open": menus.shownMenuId.map(JSONValue.string) ?? .null]
        state["alert"] = session.alertDialog.map { dialog in
            let alert = dialog.request
            return ["alertId": .string(alert.alertId), "title": .string(alert.title), "message": alert.message.map(JSONValue.string) ?? .null,
                    "actions": .array(alert.actions.map { ["id": .string($0.id), "label": .string($0.label), "role": .string($0.effectiveRole.rawValue)] })]
        } ?? .null
        return .object(state)
    }
}
