/// Where a hosted page may go, for every app's page (README "Links and frames"): frames load
/// their content as in the phone's web view; the main frame stays on the server's origin; only
/// a person's activation hands an address to the desktop (browser, mail); a pop-up never opens
/// a window of ours (auxiliary windows would get no bridge) and, without a gesture, nothing.
/// `MainFrameConfinement` stops a main-frame load off the origin before its request; the glue
/// then asks the guard as at its response, so the judgement below stays the one authority.
///
/// WebKitGTK asks twice: about a navigation *action* (its address, whether a person's gesture
/// started it, whether it is a redirect, how it was started) without saying which frame it is
/// for, and about a *response*, saying whether it is the main frame's document. So a web
/// address on another origin is let through at the action and judged at its response, where
/// the frame is known: a subframe shows it, the main frame refuses it or — when the action was
/// a person's — hands it out. An address that has no response (`mailto:`) is judged at the
/// action: only a person's link activation hands it out.
public enum NavigationPolicy {
    /// What the page is and what it may do outside.
    public struct Context: Sendable, Equatable {
        public var serverOrigin: Origin
        /// Whether anything may be handed to the desktop (false in a kiosk: nothing opens outside).
        public var handsOut: Bool
        public init(serverOrigin: Origin, handsOut: Bool) { self.serverOrigin = serverOrigin; self.handsOut = handsOut }
    }

    /// How WebKit says the navigation was started.
    public enum Trigger: String, Sendable, Equatable, CaseIterable {
        case linkClicked, formSubmitted, backForward, reload, formResubmitted, other
    }

    /// What WebKit asks about.
    public enum Stage: Sendable, Equatable {
        /// A navigation in this page, frame not known.
        case action
        /// A request for a new window (`window.open`, `target=_blank`).
        case newWindow
        /// A response arrived for a document: the main frame's, or a subframe's. `canShow`:
        /// whether the web view can show it (false: WebKit would download it to the person's
        /// Downloads folder).
        case response(mainFrame: Bool, canShow: Bool = true)
    }

    /// The facts the glue reports; nothing else decides.
    public struct Request: Sendable, Equatable {
        public var stage: Stage
        public var url: String
        public var userGesture: Bool
        public var isRedirect: Bool
        public var trigger: Trigger
        public init(stage: Stage, url: String, userGesture: Bool = false, isRedirect: Bool = false, trigger: Trigger = .other) {
            self.stage = stage; self.url = url; self.userGesture = userGesture; self.isRedirect = isRedirect; self.trigger = trigger
        }
    }

    public enum Action: String, Sendable, Equatable {
        /// Let WebKit go on (load it here, or go on to the response).
        case load
        /// Stop it here and hand the address to the desktop.
        case openExternally
        /// Stop it; nothing is opened.
        case refuse
        /// Stop it here and open the address in a new window of the app, on the same server
        /// and session (a page of the server's own origin a person opened in a new window).
        case openWindow
    }

    public struct Verdict: Sendable, Equatable {
        public var action: Action
        /// Why, for `ctl state` and the log.
        public var reason: String
        public init(_ action: Action, _ reason: String) { self.action = action; self.reason = reason }
    }

    /// How the address relates to the page's server.
    enum Destination: Equatable {
        /// `about:blank`, `about:srcdoc`, `blob:`, `data:`: content the page itself made.
        case local
        case sameOrigin
        case otherOrigin
        /// `mailto:`: the one scheme without a response that may be handed out.
        case mail
        /// Any other scheme (`file:`, `tel:`, custom schemes) or an address that does not parse.
        case other

        init(_ url: String, server: Origin) {
            if Self.isAbout("about:blank", url) || Self.isAbout("about:srcdoc", url)
                || url.hasPrefixFoldingASCII("blob:") || url.hasPrefixFoldingASCII("data:") {
                self = .local
            } else if let origin = Origin(url: url) ?? (Origin.defaultPort(server.scheme) == nil ? Origin(url: url, appScheme: server.scheme) : nil) {
                // An app scheme's page (`capacitor://localhost`) is on its origin like a web one.
                self = origin == server ? .sameOrigin : .otherOrigin
            } else if url.hasPrefixFoldingASCII("mailto:") {
                self = .mail
            } else {
                self = .other
            }
        }

        /// `url` is `name` itself in any ASCII case, optionally with a query or fragment; read on
        /// scalars (§5), so `about:blankx` or `about:blank` followed by a mark is not.
        static func isAbout(_ name: String, _ url: String) -> Bool {
            guard url.hasPrefixFoldingASCII(name) else { return false }
            let next = url.utf8.dropFirst(name.utf8.count).first
            return next == nil || next == UInt8(ascii: "?") || next == UInt8(ascii: "#")
        }
    }

    /// Whether the action was a person's activation: a gesture, not a redirect.
    static func isActivation(_ request: Request) -> Bool { request.userGesture && !request.isRedirect }

    /// The pure decision. `activated`: at a main-frame response, whether the action that led to
    /// it was a person's activation (the guard remembers it; see `NavigationGuard`).
    public static func decide(_ request: Request, context: Context, activated: Bool = false) -> Verdict {
        let destination = Destination(request.url, server: context.serverOrigin)
        func handOut(_ why: String) -> Verdict {
            context.handsOut ? Verdict(.openExternally, why) : Verdict(.refuse, "nothing opens outside this app (kiosk)")
        }
        switch request.stage {
        case .newWindow:
            guard isActivation(request) else { return Verdict(.refuse, "a pop-up without a person's gesture") }
            switch destination {
            case .sameOrigin:
                return context.handsOut ? Verdict(.openWindow, "a person opened a page of the server in a new window")
                    : Verdict(.refuse, "a kiosk opens no other window")
            case .otherOrigin: return handOut("a person opened a link in a new window")
            case .mail: return handOut("a person opened a mail link")
            case .local, .other: return Verdict(.refuse, "a new window for an address the desktop cannot open")
            }
        case .action:
            switch destination {
            case .local: return Verdict(.load, "content the page made itself")
            case .sameOrigin: return Verdict(.load, "the server's own origin")
            case .otherOrigin: return Verdict(.load, "another origin: judged at its response, where the frame is known")
            case .mail:
                guard isActivation(request), request.trigger == .linkClicked || request.trigger == .formSubmitted else {
                    return Verdict(.refuse, "a mail address without a person's activation")
                }
                return handOut("a person activated a mail link")
            case .other: return Verdict(.refuse, "an address this app does not open")
            }
        case .response(let mainFrame, let canShow):
            guard canShow else {
                // A download puts a file on the person's disk: only when they asked for it.
                return mainFrame && activated && destination != .mail && destination != .other
                    ? Verdict(.load, "a person asked for this download")
                    : Verdict(.refuse, mainFrame ? "a download without a person's activation" : "a frame may not download files")
            }
            guard mainFrame else { return Verdict(.load, "a frame's content") }
            switch destination {
            case .local, .sameOrigin: return Verdict(.load, "the main frame on the server's origin")
            case .otherOrigin:
                return activated ? handOut("a person activated a link to another site")
                    : Verdict(.refuse, "the main frame may not leave the server's origin without a person's activation")
            case .mail, .other: return Verdict(.refuse, "an address this app does not open")
            }
        }
    }
}

/// One page's navigation guard: the policy plus what it must remember between a navigation
/// action and its response — which addresses a person activated (a few, newest last).
public struct NavigationGuard: Sendable, Equatable {
    public let context: NavigationPolicy.Context
    /// Addresses of actions a person started, awaiting their responses.
    public private(set) var activated: [String] = []
    /// How many activations are remembered at most.
    public static let rememberedActivations = 8

    /// The address the app itself last asked the page to load (its main frame shows it,
    /// whatever its origin: `probe --host` loads a page off the server's origin on purpose).
    public private(set) var hostLoad: String?

    public init(_ context: NavigationPolicy.Context) { self.context = context }

    /// The app loads `url` in the main frame.
    public mutating func hostLoads(_ url: String) { hostLoad = url }

    /// A download the engine started (a `download` link, a blob, an attachment the main frame
    /// was let through to): kept only when a person's activation asked for its address — the
    /// activation is used up — else refused. Frames never get here: their downloads are refused
    /// at their response.
    public mutating func decideDownload(_ url: String) -> NavigationPolicy.Verdict {
        guard context.handsOut else { return NavigationPolicy.Verdict(.refuse, "a kiosk downloads nothing") }
        guard let index = activated.lastIndex(of: url) ?? pendingDownloads.lastIndex(of: url) else {
            return NavigationPolicy.Verdict(.refuse, "a download without a person's activation")
        }
        if activated.indices.contains(index) && activated[index] == url { activated.remove(at: index) }
        pendingDownloads.removeAll { $0 == url }
        return NavigationPolicy.Verdict(.load, "a person asked for this download")
    }

    /// Main-frame responses let through as downloads, awaiting the engine's download.
    public private(set) var pendingDownloads: [String] = []

    /// `now`: monotonic seconds, for pop-ups (one per activation).
    public mutating func decide(_ request: NavigationPolicy.Request, now: Double = 0) -> NavigationPolicy.Verdict {
        switch request.stage {
        case .action:
            let verdict = NavigationPolicy.decide(request, context: context)
            // A person's activation is remembered for its response; so is a redirect while one
            // is pending (it continues that navigation: WebKit does not carry the gesture over).
            if verdict.action == .load, NavigationPolicy.isActivation(request) || request.isRedirect && !activated.isEmpty {
                activated.removeAll { $0 == request.url }
                activated.append(request.url)
                if activated.count > Self.rememberedActivations { activated.removeFirst() }
            }
            return verdict
        case .response(let mainFrame, _):
            if mainFrame, let hostLoad, hostLoad == request.url {
                self.hostLoad = nil
                activated.removeAll()
                return NavigationPolicy.Verdict(.load, "the app itself loaded it")
            }
            let wasActivated = mainFrame && activated.contains(request.url)
            // The main frame's navigation is settled; a frame's response uses up its own.
            if mainFrame { activated.removeAll() } else { activated.removeAll { $0 == request.url } }
            let verdict = NavigationPolicy.decide(request, context: context, activated: wasActivated)
            if case .response(true, false) = request.stage, verdict.action == .load {
                pendingDownloads.append(request.url)
                if pendingDownloads.count > Self.rememberedActivations { pendingDownloads.removeFirst() }
            }
            return verdict
        case .newWindow:
            let verdict = NavigationPolicy.decide(request, context: context)
            guard verdict.action == .openWindow || verdict.action == .openExternally else { return verdict }
            // One window per activation, as browsers allow one pop-up per click: WebKit marks
            // every `window.open` of one click handler as a gesture (one click opened 20), so
            // the guard spends the activation on the first and refuses the rest until a person
            // acts again or the gesture could no longer be carried (its lifetime).
            if let spent = popUpSpentAt, now - spent < Self.activationLifetime {
                return NavigationPolicy.Verdict(.refuse, "one new window per activation: this one has opened its window")
            }
            popUpSpentAt = now
            return verdict
        }
    }

    /// When the last pop-up spent an activation (monotonic seconds), while unspent by new input.
    public private(set) var popUpSpentAt: Double?

    /// How long WebKit carries a person's gesture on (to timers and promises a click handler
    /// starts); past it a spent activation cannot be what asks again.
    public static let activationLifetime = 1.0

    /// A person pressed a key, a button or the screen in the page: a new activation, which may
    /// open one window.
    public mutating func personActed() { popUpSpentAt = nil }
}

/// What was handed to the desktop and what was refused, newest last, for `ctl state`
/// (`external`): a bounded record every app's pages add to.
public struct ExternalRecord: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var url: String
        public var reason: String
    }
    public static let kept = 20
    /// Addresses are kept this many Unicode scalars long.
    public static let urlScalars = 256
    public private(set) var opened: [Entry] = []
    public private(set) var refused: [Entry] = []

    public init() {}

    public mutating func note(_ url: String, _ verdict: NavigationPolicy.Verdict) {
        let entry = Entry(url: BridgeLog.shortened(url, keeping: Self.urlScalars), reason: verdict.reason)
        switch verdict.action {
        case .load, .openWindow: return
        case .openExternally: opened.append(entry); if opened.count > Self.kept { opened.removeFirst() }
        case .refuse: refused.append(entry); if refused.count > Self.kept { refused.removeFirst() }
        }
    }

    public var json: JSONValue {
        func list(_ entries: [Entry]) -> JSONValue { .array(entries.map { ["url": .string($0.url), "reason": .string($0.reason)] }) }
        return ["opened": list(opened), "refused": list(refused)]
    }
}
