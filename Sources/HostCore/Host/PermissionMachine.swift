/// What a page may ask of the device through WebKit, and how each question is settled (README
/// "Permissions") — for every app's pages, keyed by the profile (a Studio server, a Capacitor
/// app) whose answers are remembered.
public enum PermissionKind: String, Sendable, Equatable, Hashable, CaseIterable, Comparable {
    case camera, microphone, screen, geolocation, notifications, clipboard, pointerLock, deviceInfo, mediaKeys, storageAccess
    /// Kept for `ctl privacy` (the phone's photo library and motion switches); WebKitGTK never asks.
    case photos, motion

    /// What the prompt asks to let the server do.
    public var use: String {
        switch self {
        case .camera: "use your camera"
        case .microphone: "use your microphone"
        case .screen: "see your screen"
        case .geolocation: "know your location"
        case .notifications: "show notifications"
        case .clipboard: "read your clipboard"
        case .pointerLock: "take over the pointer"
        case .deviceInfo: "see the names of your cameras and microphones"
        case .mediaKeys: "play protected media"
        case .storageAccess: "use its data in embedded content"
        case .photos: "use your photos"
        case .motion: "use motion and orientation"
        }
    }

    /// The kind a Permissions API name (`navigator.permissions.query({name})`) asks about; nil
    /// for a name that is none of these (WebKit answers those itself).
    public init?(queryName: String) {
        switch queryName {
        case "camera": self = .camera
        case "microphone": self = .microphone
        case "display-capture": self = .screen
        case "geolocation": self = .geolocation
        case "notifications", "push": self = .notifications
        case "clipboard-read": self = .clipboard
        default: return nil
        }
    }

    public static func < (a: PermissionKind, b: PermissionKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One profile's permission questions: answered from what was remembered, by a person in a
/// native prompt (one at a time, the others wait their turn), by the control interface (`ctl
/// permission grant|deny`: the question that is open, else the next question — an answer given
/// ahead is used, no prompt shown), or — with no one to ask (no display of its own, a kiosk) —
/// denied. A person's and the control interface's answers are remembered per kind for the
/// profile; a denial for want of anyone is not.
///
/// An app's own native question (a Capacitor app's notification permission, issue 28 item 2)
/// takes its turn with the page's: it is not answered from the profile's memory nor remembered
/// there (the app keeps its own answer), and with no one to ask it waits for `ctl permission`.
public struct PermissionMachine: Machine, Sendable, Equatable {
    public struct Question: Sendable, Equatable {
        public var id: Int
        public var kinds: [PermissionKind]
        /// The app's own native question, not WebKit's.
        public var byApp: Bool
        public init(id: Int, kinds: [PermissionKind], byApp: Bool = false) { self.id = id; self.kinds = kinds; self.byApp = byApp }
    }

    /// How a question was answered, for `ctl state`.
    public enum How: String, Sendable, Equatable {
        case remembered, person, control, unattended
        /// Settled by `ctl privacy`.
        case privacy
    }

    public struct Answered: Sendable, Equatable {
        public var kinds: [PermissionKind]
        public var granted: Bool
        public var how: How
    }

    public enum Event: Sendable, Equatable {
        /// WebKit asks (`kinds` never empty: a request for nothing the glue knows is denied there).
        case asked(id: Int, kinds: [PermissionKind])
        /// The app asks its own native question (see the type's note).
        case appAsked(id: Int, kinds: [PermissionKind])
        /// The person pressed Allow or Deny in the prompt for `id`.
        case personAnswered(id: Int, grant: Bool)
        /// `ctl permission grant|deny`.
        case controlAnswered(grant: Bool)
        /// The question went away unanswered (its page closed).
        case withdrawn(id: Int)
        /// `ctl privacy grant|revoke|reset`: `answer` is remembered for `kinds` (nil: forgotten,
        /// asked again); the questions waiting that it now answers are settled, the app's own too.
        case privacy(kinds: [PermissionKind], answer: Bool?)
        /// `ctl erase`: every remembered answer forgotten (the next question is asked again).
        case forgetAll
    }

    public enum Effect: Sendable, Equatable {
        case answer(id: Int, grant: Bool)
        case prompt(Question)
        case closePrompt(id: Int)
        /// Write the remembered answers (the profile's file).
        case save([PermissionKind: Bool])
    }

    /// Answers kept for the log and state, newest last.
    public static let keptAnswers = 10
    /// Control answers waiting for questions, at most.
    public static let queuedControlAnswers = 8

    /// Whether a person can be asked.
    public let attended: Bool
    public private(set) var remembered: [PermissionKind: Bool]
    /// Questions waiting, the first one prompted (attended only).
    public private(set) var waiting: [Question] = []
    /// `ctl permission` answers given before a question came.
    public private(set) var controlAnswers: [Bool] = []
    public private(set) var answered: [Answered] = []

    public init(attended: Bool, remembered: [PermissionKind: Bool] = [:]) {
        self.attended = attended
        self.remembered = remembered
    }

    /// The question a prompt shows now.
    public var prompted: Question? { attended ? waiting.first : nil }
    /// The question open now (shown in a prompt, or an app's waiting for `ctl permission`).
    public var open: Question? { waiting.first }

    public mutating func reduce(_ event: Event) -> [Effect] {
        switch event {
        case .asked(let id, let kinds), .appAsked(let id, let kinds):
            let byApp = if case .appAsked = event { true } else { false }
            let question = Question(id: id, kinds: Array(Set(kinds)).sorted(), byApp: byApp)
            if !byApp, let known = fromMemory(question.kinds) { return [settle(question, grant: known, how: .remembered)] }
            if !controlAnswers.isEmpty {
                let grant = controlAnswers.removeFirst()
                return [settle(question, grant: grant, how: .control)] + (byApp ? [] : [.save(remember(question.kinds, grant))])
            }
            guard attended || byApp else { return [settle(question, grant: false, how: .unattended)] }
            waiting.append(question)
            return waiting.count == 1 && attended ? [.prompt(question)] : []
        case .personAnswered(let id, let grant):
            guard let first = prompted, first.id == id else { return [] }
            return finishPrompt(grant: grant, how: .person)
        case .controlAnswered(let grant):
            if let first = open {
                return (attended ? [.closePrompt(id: first.id)] : []) + finishPrompt(grant: grant, how: .control)
            }
            controlAnswers.append(grant)
            if controlAnswers.count > Self.queuedControlAnswers { controlAnswers.removeFirst() }
            return []
        case .privacy(let kinds, let answer):
            return setPrivacy(kinds, answer)
        case .forgetAll:
            let had = !remembered.isEmpty || !controlAnswers.isEmpty
            remembered = [:]
            controlAnswers = []
            return had ? [.save([:])] : []
        case .withdrawn(let id):
            guard let index = waiting.firstIndex(where: { $0.id == id }) else { return [] }
            waiting.remove(at: index)
            guard index == 0 else { return [] }
            return (attended ? [.closePrompt(id: id)] : []) + next()
        }
    }

    /// What `navigator.permissions.query` reports for `kind`: the remembered answer, or that it
    /// would be asked.
    public enum QueryState: String, Sendable, Equatable { case granted, denied, prompt }
    public func queryState(_ kind: PermissionKind) -> QueryState {
        switch remembered[kind] {
        case true?: .granted
        case false?: .denied
        case nil: .prompt
        }
    }

    /// Sets the remembered answer of `kinds` and settles what it now decides: the open question
    /// (its prompt closed) and those waiting behind it, an app's own question included — a
    /// privacy setting is the device's, not the page's.
    private mutating func setPrivacy(_ kinds: [PermissionKind], _ answer: Bool?) -> [Effect] {
        for kind in kinds { remembered[kind] = answer }
        var effects: [Effect] = [.save(remembered)]
        let promptedBefore = prompted?.id
        var kept: [Question] = []
        for question in waiting {
            if let known = fromMemory(question.kinds) { effects.append(settle(question, grant: known, how: .privacy)) } else { kept.append(question) }
        }
        waiting = kept
        if let promptedBefore, prompted?.id != promptedBefore {
            effects.insert(.closePrompt(id: promptedBefore), at: 1)
            if let first = prompted { effects.append(.prompt(first)) }
        }
        return effects
    }

    /// Granted when every kind was granted, denied when any was denied, else nil.
    func fromMemory(_ kinds: [PermissionKind]) -> Bool? {
        if kinds.contains(where: { remembered[$0] == false }) { return false }
        return kinds.allSatisfy({ remembered[$0] == true }) ? true : nil
    }

    private mutating func remember(_ kinds: [PermissionKind], _ grant: Bool) -> [PermissionKind: Bool] {
        for kind in kinds { remembered[kind] = grant }
        return remembered
    }

    private mutating func settle(_ question: Question, grant: Bool, how: How) -> Effect {
        answered.append(Answered(kinds: question.kinds, granted: grant, how: how))
        if answered.count > Self.keptAnswers { answered.removeFirst() }
        return .answer(id: question.id, grant: grant)
    }

    private mutating func finishPrompt(grant: Bool, how: How) -> [Effect] {
        let question = waiting.removeFirst()
        let save: [Effect] = question.byApp ? [] : [.save(remember(question.kinds, grant))]
        return [settle(question, grant: grant, how: how)] + save + next()
    }

    /// Settles the waiting questions the memory now answers, and prompts the next one.
    private mutating func next() -> [Effect] {
        var effects: [Effect] = []
        while let first = waiting.first {
            guard !first.byApp, let known = fromMemory(first.kinds) else { return effects + (attended ? [.prompt(first)] : []) }
            waiting.removeFirst()
            effects.append(settle(first, grant: known, how: .remembered))
        }
        return effects
    }

    /// `ctl state`'s `permissions`.
    public var json: JSONValue {
        var memory = JSONObject()
        for kind in PermissionKind.allCases { if let grant = remembered[kind] { memory[kind.rawValue] = .string(grant ? "granted" : "denied") } }
        func kinds(_ list: [PermissionKind]) -> JSONValue { .array(list.map { .string($0.rawValue) }) }
        return ["attended": .bool(attended),
                "pending": open.map { ["kinds": kinds($0.kinds), "asker": .string($0.byApp ? "app" : "page"), "prompted": .bool(attended)] } ?? .null,
                "waiting": .number(Double(waiting.count)),
                "queuedAnswers": .array(controlAnswers.map { .string($0 ? "grant" : "deny") }),
                "remembered": .object(memory),
                "answered": .array(answered.map { ["kinds": kinds($0.kinds), "granted": .bool($0.granted), "how": .string($0.how.rawValue)] })]
    }

    /// The remembered answers as the profile's file keeps them: `{"camera": "granted", …}`.
    public static func file(_ remembered: [PermissionKind: Bool]) -> String {
        var object = JSONObject()
        for kind in PermissionKind.allCases { if let grant = remembered[kind] { object[kind.rawValue] = .string(grant ? "granted" : "denied") } }
        return JSONWriter.string(.object(object))
    }

    /// What is wrong with a profile's file, or nil when it is one: a JSON object (a kind or
    /// answer it does not know is not damage, only left out). A damaged file is kept aside and
    /// the person told, never silently forgotten.
    public static func fileProblem(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return "it is not UTF-8 text" }
        return (try? JSONParser.parse(text, maxDepth: 2))?.objectValue == nil ? "it is not a JSON object of answers" : nil
    }

    /// Reads a profile's file; anything not understood (a damaged file, an unknown kind or
    /// value) is left out: that question is asked again.
    public static func parse(_ text: String) -> [PermissionKind: Bool] {
        guard let object = (try? JSONParser.parse(text, maxDepth: 2))?.objectValue else { return [:] }
        var remembered: [PermissionKind: Bool] = [:]
        for member in object.members {
            guard let kind = PermissionKind(rawValue: member.key) else { continue }
            switch member.value.stringValue {
            case "granted": remembered[kind] = true
            case "denied": remembered[kind] = false
            default: continue
            }
        }
        return remembered
    }

    /// The prompt's wording for a question on `server` (its name as the person knows it).
    public static func prompt(_ kinds: [PermissionKind], server: String) -> (heading: String, body: String) {
        let uses = kinds.map(\.use)
        let list = uses.count <= 1 ? (uses.first ?? "") : uses.dropLast().joined(separator: ", ") + " and " + uses.last!
        return ("Allow \(server) to \(list)?",
                "HostShell remembers your answer for this server.")
    }
}
