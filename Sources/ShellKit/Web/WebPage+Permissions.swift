import CGtk
import HostCore

/// WebKit's permission questions (camera, microphone, screen, location, notifications,
/// clipboard, pointer lock, device names, protected media, storage access) go to the page's
/// profile's `PermissionCenter`; one HostShell does not know is denied.
extension WebPage {
    func connectPermissions() -> [SignalConnection] {
        [onPermissionRequest(view) { [weak self] request in
            let kinds = WebPage.permissionKinds(cgtk_permission_kinds(request))
            guard let self, !kinds.isEmpty, !self.lettingGo else {
                webkit_permission_request_deny(request)
                return true
            }
            self.permissions.ask(request, kinds: kinds, from: self)
            return true
        },
        // navigator.permissions.query reports the remembered answers.
        onPermissionQuery(view) { [weak self] query in
            guard let self, let name = webkit_permission_state_query_get_name(query),
                  let kind = PermissionKind(queryName: String(cString: name)) else {
                return false  // WebKit answers it
            }
            let answer: WebKitPermissionState = switch self.permissions.machine.queryState(kind) {
            case .granted: WEBKIT_PERMISSION_STATE_GRANTED
            case .denied: WEBKIT_PERMISSION_STATE_DENIED
            case .prompt: WEBKIT_PERMISSION_STATE_PROMPT
            }
            webkit_permission_state_query_finish(query, answer)
            return true
        }]
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
