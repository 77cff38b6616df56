import CGtk
import HostCore

/// WebKit's permission questions (camera, microphone, screen, location, notifications,
/// clipboard, pointer lock, device names, protected media, storage access) go to the page's
/// profile's `PermissionCenter`; one HostShell does not know is denied.
extension WebPage {
    func connectPermissions() {
        cgtk_connect_permission_request(view, { _, request, data in
            let page = Unmanaged<WebPage>.fromOpaque(data!).takeUnretainedValue()
            let kinds = WebPage.permissionKinds(cgtk_permission_kinds(request))
            guard !kinds.isEmpty else {
                webkit_permission_request_deny(request)
                return 1
            }
            MainActor.assumeIsolated {
                if page.lettingGo { webkit_permission_request_deny(request) } else { page.permissions.ask(request!, kinds: kinds, from: page) }
            }
            return 1
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        // navigator.permissions.query reports the remembered answers.
        cgtk_connect_permission_query(view, { _, query, data in
            let page = Unmanaged<WebPage>.fromOpaque(data!).takeUnretainedValue()
            guard let name = webkit_permission_state_query_get_name(query), let kind = PermissionKind(queryName: String(cString: name)) else {
                return 0  // WebKit answers it
            }
            let state = MainActor.assumeIsolated { page.permissions.machine.queryState(kind) }
            let answer: WebKitPermissionState = switch state {
            case .granted: WEBKIT_PERMISSION_STATE_GRANTED
            case .denied: WEBKIT_PERMISSION_STATE_DENIED
            case .prompt: WEBKIT_PERMISSION_STATE_PROMPT
            }
            webkit_permission_state_query_finish(query, answer)
            return 1
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// The kinds the shim's bits name.
    nonisolated static func permissionKinds(_ bits: guint) -> [PermissionKind] {
        let named: [(Int, PermissionKind)] = [
            (Int(CGTK_PERMISSION_CAMERA), .camera), (Int(CGTK_PERMISSION_MICROPHONE), .microphone),
            (Int(CGTK_PERMISSION_SCREEN), .screen), (Int(CGTK_PERMISSION_GEOLOCATION), .geolocation),
            (Int(CGTK_PERMISSION_NOTIFICATIONS), .notifications), (Int(CGTK_PERMISSION_CLIPBOARD), .clipboard),
            (Int(CGTK_PERMISSION_POINTER_LOCK), .pointerLock), (Int(CGTK_PERMISSION_DEVICE_INFO), .deviceInfo),
            (Int(CGTK_PERMISSION_MEDIA_KEYS), .mediaKeys), (Int(CGTK_PERMISSION_STORAGE_ACCESS), .storageAccess),
        ]
        return named.filter { Int(bits) & $0.0 != 0 }.map(\.1)
    }
}
