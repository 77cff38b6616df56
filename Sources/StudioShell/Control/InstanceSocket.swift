import CGtk
import HostCore
import ShellKit

/// The running app's own socket for links from the desktop: `hostshell open-url` (which the
/// `tilecast-ios:` scheme handler runs) hands a link to the app already running instead of
/// starting a second one. Owner-only, in the user's runtime directory, one per configuration
/// (so separate profiles do not meet); it accepts `open-url`, and `servers-changed` from
/// `server add` and `server remove` (see `ShellApp.followStore`), and nothing else.
package enum InstanceSocket {
    package static var path: String {
        let config = String(cString: g_get_user_config_dir())
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in config.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(cString: g_get_user_runtime_dir()) + "/hostshell/instance-" + String(hash, radix: 36) + ".sock"
    }

    /// How messages name the app at the other end.
    package static let runningApp = "the HostShell app already running on this configuration"

    /// Serves the socket for `app`, or nil (with a note) when another app already does.
    @MainActor
    package static func serve(_ app: ShellApp) -> ControlServer? {
        let path = Self.path
        g_mkdir_with_parents(takeGString(g_path_get_dirname(path)) ?? "/tmp", 0o700)
        do throws(UsageError) {
            return try ControlServer(path: path, events: app.environment.events) { request, answer in
                if case .app(let command) = request.command, command.name == "servers-changed" {
                    return app.followStore { result in
                        switch result {
                        case .success(let summary): answer(ControlResponse.ok(request.id, ["message": .string(summary)]))
                        case .failure(let error): answer(ControlResponse.failure(request.id, error))
                        }
                    }
                }
                guard case .openURL(let url) = request.command else {
                    return answer(ControlResponse.failure(request.id, ControlError("this socket only opens links; start the app with --control for the rest")))
                }
                let result = app.openURL(url)
                answer(result.opened ? ControlResponse.ok(request.id, ["message": .string(result.message)])
                                     : ControlResponse.failure(request.id, ControlError(result.message)))
            }
        } catch {
            printError("hostshell: note: links from the desktop go to the other HostShell already running (\(error.message))")
            return nil
        }
    }
}

/// What `server add` and `server remove` use to tell the running app (if one runs on this
/// configuration) that the saved list changed, waiting until it has followed.
package enum AppNotifier {
    /// Nil when no app runs or it followed; otherwise what went wrong, for a note.
    static func serversChanged() -> String? {
        do throws(UsageError) {
            guard let socket = try UnixSocket.connectIfListening(InstanceSocket.path, app: InstanceSocket.runningApp) else { return nil }
            try socket.send(JSONWriter.string(["command": "servers-changed"]))
            let line = try socket.receiveLine(timeout: ControlRequest.answerMargin)
            let object = (try? JSONParser.parse(line))?.objectValue
            if object?["ok"]?.boolValue == true { return nil }
            return object?["error"]?.stringValue ?? "the running app did not follow the change"
        } catch {
            return error.message
        }
    }
}
