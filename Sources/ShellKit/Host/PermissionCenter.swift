import CGtk
import HostCore

/// Carries out one profile's `PermissionMachine` for every page of that profile, whatever app
/// it belongs to: holds WebKit's requests while they wait, shows the prompt, answers WebKit,
/// and keeps the remembered answers in the profile's `permissions.json`. A page without a
/// profile (`probe`) gets a center of its own that keeps nothing. An app's own native question
/// (`askForApp`) takes its turn with WebKit's. The prompt shown is a system surface over its
/// page (`WebPage.onSystemSurface`).
@MainActor
package final class PermissionCenter {
    private static var centers: [String: PermissionCenter] = [:]

    /// The center of the profile whose data directory is `data` (one per profile for the life
    /// of the app).
    package static func of(profileData data: String?, attended: Bool) -> PermissionCenter {
        guard let data else { return PermissionCenter(file: nil, attended: attended) }
        if let existing = centers[data] { return existing }
        let center = PermissionCenter(file: data + "/permissions.json", attended: attended)
        centers[data] = center
        return center
    }

    private let loop: MachineLoop<PermissionMachine>
    package var machine: PermissionMachine { loop.machine }
    private let file: String?
    private enum Asker {
        case webKit(OpaquePointer)  // WebKitPermissionRequest*, one reference ours
        /// An app's own question: its words and where the answer goes.
        case app(heading: String, body: String, answer: @MainActor (Bool) -> Void)
    }
    private struct Waiting {
        let asker: Asker
        let kinds: [PermissionKind]
        weak var page: WebPage?
        let server: String
    }
    /// The prompt's surface over its page, while it is shown.
    private var surface: (id: String, page: WebPage?)?
    private var waiting: [Int: Waiting] = [:]
    private var lastId = 0
    private var prompt: PermissionPrompt?
    /// A question was answered (however: remembered, a person, `ctl`, no one to ask), for the
    /// bridge log: its kinds, the answer, and whether it was the app's own question.
    package var onAnswered: (@MainActor (_ kinds: [PermissionKind], _ grant: Bool, _ byApp: Bool) -> Void)?
    /// A question is open now (waiting for a person or `ctl permission`), for a replay to answer.
    package var onOpened: (@MainActor (PermissionMachine.Question) -> Void)?

    private init(file: String?, attended: Bool) {
        self.file = file
        let bytes = file.flatMap { Self.load(ProfileFile($0, what: "the permission answers", limit: Self.maxFileBytes)) }
        loop = MachineLoop(PermissionMachine(attended: attended, remembered: bytes.map { PermissionMachine.parse(String(decoding: $0, as: UTF8.self)) } ?? [:]))
    }

    static let maxFileBytes = 64 << 10

    /// The file's bytes when it holds answers; nil when there is none, when it is refused (a
    /// FIFO, a link to nothing: left as it is) or damaged (kept aside) — said on standard error.
    private static func load(_ file: ProfileFile) -> [UInt8]? {
        let problem: String
        do throws(UsageError) {
            switch try file.read() {
            case .absent: return nil
            case .bytes(let bytes):
                guard let found = PermissionMachine.fileProblem(bytes) else { return bytes }
                problem = found
            case .damaged(let found): problem = found
            }
            let kept = try file.keepAside(problem)
            printError("hostshell: warning: " + TerminalText.escaped(ProfileFileRules.keptAside(
                path: file.path, what: file.what, problem: kept.problem, aside: kept.path, instead: "every question will be asked again")))
        } catch {
            printError("hostshell: warning: \(TerminalText.escaped(error.message))")
        }
        return nil
    }

    /// WebKit asks, for `page`: the request is kept (a reference of ours) until it is answered.
    func ask(_ request: OpaquePointer, kinds: [PermissionKind], from page: WebPage) {
        lastId += 1
        g_object_ref(UnsafeMutableRawPointer(request))
        waiting[lastId] = Waiting(asker: .webKit(request), kinds: kinds, page: page, server: page.trust.name)
        run(.asked(id: lastId, kinds: kinds))
    }

    /// The app of `page` asks its own native question, in its own words; `answer` is called
    /// once, unless the page closes first. With no one to ask it waits for `ctl permission`.
    package func askForApp(_ kinds: [PermissionKind], heading: String, body: String, from page: WebPage?,
                           answer: @escaping @MainActor (Bool) -> Void) {
        lastId += 1
        waiting[lastId] = Waiting(asker: .app(heading: heading, body: body, answer: answer), kinds: kinds, page: page, server: page?.trust.name ?? "")
        run(.appAsked(id: lastId, kinds: kinds))
    }

    /// `ctl permission grant|deny`: what it did, worded for the person.
    package func controlAnswer(_ grant: Bool) -> String {
        let open = machine.open
        run(.controlAnswered(grant: grant))
        let word = grant ? "granted" : "denied"
        if let open { return "\(open.kinds.map(\.rawValue).joined(separator: " and ")) \(word)" }
        return "no question is open: the next one will be \(word)"
    }

    /// `ctl privacy grant|revoke|reset` (`answer` nil: reset): remembered for the profile, and
    /// what it now decides among the questions waiting is answered.
    package func setPrivacy(_ kinds: [PermissionKind], answer: Bool?) {
        run(.privacy(kinds: kinds, answer: answer))
    }

    /// `ctl erase`: the profile's remembered answers forgotten (and its file emptied); how many there were.
    package func forgetAll() -> Int {
        let count = machine.remembered.count
        run(.forgetAll)
        return count
    }

    /// `page`'s questions go unanswered (its document or the page itself is gone): WebKit is told
    /// no. The app's own questions outlive a document (`document`) and go only with the page.
    package func withdraw(page: WebPage, document: Bool = false) {
        for (id, entry) in waiting where entry.page == nil || entry.page === page {
            if document, case .app = entry.asker, entry.page != nil { continue }
            run(.withdrawn(id: id))
            if let gone = waiting.removeValue(forKey: id), case .webKit(let request) = gone.asker { finish(request, grant: false) }
        }
    }

    private func run(_ event: PermissionMachine.Event) {
        // The prompt's surface goes once no prompt is left after the event (a next prompt
        // shown by it takes the surface over first: the app does not flicker active).
        let before = machine.open?.id
        if loop.send(event, perform: { perform($0) }), prompt == nil { cover(nil) }
        if let open = machine.open, open.id != before { onOpened?(open) }
    }

    /// The surface over `page` is now the prompt `id`'s (nil: none): the new one is shown before
    /// the old one closes.
    private func cover(_ new: (id: String, page: WebPage?)?) {
        let old = surface
        surface = new
        if let new, old?.id != new.id { new.page?.onSystemSurface?(new.id, true) }
        if let old, old.id != new?.id { old.page?.onSystemSurface?(old.id, false) }
    }

    private func perform(_ effect: PermissionMachine.Effect) {
        switch effect {
        case .answer(let id, let grant):
            guard let entry = waiting.removeValue(forKey: id) else { return }
            let byApp = if case .app = entry.asker { true } else { false }
            onAnswered?(Array(Set(entry.kinds)).sorted(), grant, byApp)
            switch entry.asker {
            case .webKit(let request): finish(request, grant: grant)
            case .app(_, _, let answer): answer(grant)
            }
        case .prompt(let question):
            let entry = waiting[question.id]
            let words: (heading: String, body: String) = if case .app(let heading, let body, _)? = entry?.asker {
                (heading, body)
            } else {
                PermissionMachine.prompt(question.kinds, server: entry?.server ?? "this server")
            }
            prompt?.withdraw()
            prompt = PermissionPrompt(heading: words.heading, body: words.body, parent: entry?.page?.window) { [weak self] allow in
                self?.prompt = nil
                self?.run(.personAnswered(id: question.id, grant: allow))
            }
            cover(("permission-\(question.id)", entry?.page))
        case .closePrompt:
            prompt?.withdraw()
            prompt = nil
        case .save(let remembered):
            guard let file else { return }
            do throws(UsageError) {
                let profileFile = ProfileFile(file, what: "the permission answers", limit: Self.maxFileBytes)
                if let kept = try profileFile.write(Array(PermissionMachine.file(remembered).utf8), damage: PermissionMachine.fileProblem) {
                    printError("hostshell: warning: " + TerminalText.escaped(ProfileFileRules.keptAside(
                        path: file, what: profileFile.what, problem: kept.problem, aside: kept.path, instead: "the new answers are saved")))
                }
            } catch {
                printError("hostshell: \(error.message); the answers hold until the app ends")
            }
        }
    }

    private func finish(_ request: OpaquePointer, grant: Bool) {
        if grant { webkit_permission_request_allow(request) } else { webkit_permission_request_deny(request) }
        g_object_unref(UnsafeMutableRawPointer(request))
    }
}
