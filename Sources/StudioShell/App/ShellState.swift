import HostCore
import ShellKit
import StudioContract

/// The Studio app's part of the native state (`HostState` adds what the window shows, the URL
/// and the rendering): the server shown and the saved ones, the page's negotiated state and
/// chrome, sign-in, uploads, sheets, menus, the alert and the rest of the native surface.
@MainActor
package enum ShellState {
    static func members(_ app: ShellApp) -> JSONObject {
        let session = app.session
        var state = StateReport.json(session.page.session, screen: session.screen).objectValue ?? JSONObject()
        state["server"] = ["id": .string(session.record.id), "name": .string(session.record.name),
                           "address": .string(session.record.address.normalized),
                           "installationId": .string(session.record.identity.installationId)]
        state["servers"] = .array(app.records.map { .string($0.id) })
        let size = app.window.host.size
        state["window"] = ["width": .number(Double(size.width)), "height": .number(Double(size.height)),
                           "sizeClass": .string(session.adaptive.sizeClass.rawValue)]
        state["desktop"] = app.desktopJSON
        state["windows"] = app.windowsJSON
        state["downloads"] = app.downloadsJSON
        state["auth"] = session.auth.stateJSON
        state["uploads"] = session.uploadsJSON
        state["notices"] = .array(app.notices.map(JSONValue.string))
        state["system"] = session.systemJSON
        state["qrScan"] = .bool(session.qrScan != nil)
        state["map"] = session.mapJSON
        state["presentation"] = session.presentations.stateJSON
        if let kiosk = app.kiosk {
            var report = kiosk.stateJSON.objectValue ?? JSONObject()
            report["retry"] = session.loading.retry?.json ?? .null
            state["kiosk"] = .object(report)
        }
        state["menus"] = session.menusJSON
        state["alert"] = session.alertDialog.map { dialog in
            let alert = dialog.request
            return ["alertId": .string(alert.alertId), "title": .string(alert.title), "message": alert.message.map(JSONValue.string) ?? .null,
                    "actions": .array(alert.actions.map { ["id": .string($0.id), "label": .string($0.label), "role": .string($0.effectiveRole.rawValue)] })]
        } ?? .null
        return state
    }
}
