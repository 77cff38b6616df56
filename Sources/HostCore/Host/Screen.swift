/// What a session's window shows in place of (or as) the page: the loading mark with what is
/// happening, the page itself, or a failure screen with Retry. `LoadingMachine` decides it; the
/// window only draws it, and state dumps report it.
public enum Screen: Sendable, Equatable {
    /// The loading mark and what is happening ("Connecting to …", "Loading …", a kiosk's retry).
    case loading(String)
    /// Studio's page and its native chrome.
    case page
    /// What went wrong, what to do, and Retry.
    case error(ScreenError)

    /// The state dump's `screen`: `"loading"`, `"page"` or `"error"`.
    public var name: String {
        switch self {
        case .loading: return "loading"
        case .page: return "page"
        case .error: return "error"
        }
    }

    /// The state dump's `status`: null for the page; `{title, detail}` for the loading mark; an
    /// error adds its `kind` (and `httpStatus` for an HTTP error) and `icon`.
    public var statusJSON: JSONValue {
        switch self {
        case .page:
            return .null
        case .loading(let text):
            return ["title": .string(text), "detail": ""]
        case .error(let error):
            var status: JSONObject = ["title": .string(error.title), "detail": .string(error.detail),
                                      "kind": .string(error.kind.name), "icon": .string(error.icon)]
            if case .httpError(let code) = error.kind { status["httpStatus"] = .number(Double(code)) }
            return .object(status)
        }
    }
}

/// A failure screen: why Studio is not shown, worded for the person, with a symbolic icon.
public struct ScreenError: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The TLS handshake with the server failed.
        case insecure
        /// The server did not answer.
        case unreachable
        /// The server answered, but not with a Tilecast identity.
        case notIdentified
        /// Another installation answers at the saved address.
        case wrongServer
        /// Studio's page came with this HTTP status (400 or more).
        case httpError(Int)
        /// WebKit could not load Studio's page.
        case loadFailed
        /// The page's web process ended too often in a row.
        case keepsCrashing

        /// The kind as state dumps name it.
        public var name: String {
            switch self {
            case .insecure: return "insecure"
            case .unreachable: return "unreachable"
            case .notIdentified: return "notIdentified"
            case .wrongServer: return "wrongServer"
            case .httpError: return "httpError"
            case .loadFailed: return "loadFailed"
            case .keepsCrashing: return "keepsCrashing"
            }
        }
    }

    public let kind: Kind
    public let title: String
    public let detail: String
    /// A symbolic icon name from the icon theme.
    public let icon: String

    public init(_ kind: Kind, title: String, detail: String, icon: String) {
        self.kind = kind
        self.title = title
        self.detail = detail
        self.icon = icon
    }

    /// Another installation answers at the saved address (`explanation` from `IdentityVerdict`).
    public static func wrongServer(explanation: String) -> ScreenError {
        ScreenError(.wrongServer, title: "This is not the server you saved", detail: explanation, icon: "dialog-warning-symbolic")
    }

    /// Studio's page came as the server's error page: `status` ≥ 400 from `uri`.
    public static func httpError(_ status: Int, server: String, uri: String) -> ScreenError {
        let blame = status >= 500 ? " (a problem on the server)" : ""
        return ScreenError(.httpError(status), title: "\(server) answered with an error",
                           detail: "Loading Studio failed with HTTP \(status)\(blame). \(uri)", icon: "dialog-error-symbolic")
    }

    /// WebKit could not load `uri`, for `reason` (its own message).
    public static func loadFailed(server: String, reason: String, uri: String) -> ScreenError {
        ScreenError(.loadFailed, title: "\(server) could not be loaded", detail: "\(reason)\n\(uri)", icon: "network-offline-symbolic")
    }

    /// The web process ended more often than `CrashLimiter` allows; the last time for `reason`.
    public static func keepsCrashing(_ reason: WebProcessEnd) -> ScreenError {
        ScreenError(.keepsCrashing, title: "Studio keeps stopping",
                    detail: "The page's process ended more than \(CrashLimiter.maxDeaths) times in \(Int(CrashLimiter.window)) seconds "
                        + "(\(reason.wording)). Retry when the server's Studio is fixed.",
                    icon: "dialog-error-symbolic")
    }
}

/// Why a page's web process ended.
public enum WebProcessEnd: Sendable, Equatable {
    case crashed
    /// It used more memory than WebKit allows.
    case exceededMemory
    /// The app ended it.
    case terminatedByHost
    /// The app ended it after it stopped responding for `LoadingPolicy.unresponsiveLimit`.
    case stoppedResponding

    package var wording: String {
        switch self {
        case .crashed: return "crashed"
        case .exceededMemory: return "out of memory"
        case .terminatedByHost: return "ended by the app"
        case .stoppedResponding: return "stopped responding"
        }
    }
}
