import CGtk
import HostCore

/// Carries out one profile's `PermissionMachine` for every page of that profile, whatever app
/// it belongs to: holds WebKit's requests while they wait, shows the prompt, answers WebKit,
/// and keeps the remembered answers in the profile's `permissions.json`. A page without a
/// profile (`probe`) gets a center of its own that keeps nothing.
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

    private(set) var machine: PermissionMachine
    private let file: String?
    private struct Waiting {
        let request: OpaquePointer  // WebKitPermissionRequest*, one reference ours
        weak var page: WebPage?
        let server: String
    }
    private var waiting: [Int: Waiting] = [:]
    private var lastId = 0
    private var prompt: PermissionPrompt?

    private init(file: String?, attended: Bool) {
        self.file = file
        let text = file.flatMap { try? FileReading.bytes($0, limit: 64 << 10) }.map { String(decoding: $0, as: UTF8.self) }
        machine = PermissionMachine(attended: attended, remembered: text.map(PermissionMachine.parse) ?? [:])
    }

    /// WebKit asks, for `page`: the request is kept (a reference of ours) until it is answered.
    func ask(_ request: OpaquePointer, kinds: [PermissionKind], from page: WebPage) {
        lastId += 1
        g_object_ref(UnsafeMutableRawPointer(request))
        waiting[lastId] = Waiting(request: request, page: page, server: page.trust.name)
        run(.asked(id: lastId, kinds: kinds))
    }

    /// `ctl permission grant|deny`: what it did, worded for the person.
    package func controlAnswer(_ grant: Bool) -> String {
        let open = machine.prompted
        run(.controlAnswered(grant: grant))
        let word = grant ? "granted" : "denied"
        if let open { return "\(open.kinds.map(\.rawValue).joined(separator: " and ")) \(word)" }
        return "no question is open: the next one will be \(word)"
    }

    /// `page`'s questions go unanswered (its document or the page itself is gone): WebKit is told no.
    package func withdraw(page: WebPage) {
        for (id, entry) in waiting where entry.page == nil || entry.page === page {
            run(.withdrawn(id: id))
            if let gone = waiting.removeValue(forKey: id) { finish(gone.request, grant: false) }
        }
    }

    private func run(_ event: PermissionMachine.Event) {
        for effect in machine.reduce(event) { perform(effect) }
    }

    private func perform(_ effect: PermissionMachine.Effect) {
        switch effect {
        case .answer(let id, let grant):
            if let entry = waiting.removeValue(forKey: id) { finish(entry.request, grant: grant) }
        case .prompt(let question):
            let entry = waiting[question.id]
            let words = PermissionMachine.prompt(question.kinds, server: entry?.server ?? "this server")
            prompt = PermissionPrompt(heading: words.heading, body: words.body, parent: entry?.page?.window) { [weak self] allow in
                self?.prompt = nil
                self?.run(.personAnswered(id: question.id, grant: allow))
            }
        case .closePrompt:
            prompt?.withdraw()
            prompt = nil
        case .save(let remembered):
            guard let file else { return }
            do throws(UsageError) {
                try AtomicFile.write(Array(PermissionMachine.file(remembered).utf8), to: file, what: "the permission answers")
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
