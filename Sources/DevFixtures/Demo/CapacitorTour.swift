import Foundation
import HostCore

/// The demo's scripted tour of the reference Capacitor app (`fixtures/capacitor/homesec-reference`)
/// running in `hostshell capacitor` against `serve --homesec` with auth on, driven through the
/// control interface as a test would: native setup (a refused plain-http address, a rejected
/// token, then the right one), push registration after the permission question, the app going to
/// the background and back (the live view stops on `pause`), a `homesec://` link, an opened
/// notification's route, and Settings.
/// Each step is checked against the page's state and the app's native state, and photographed
/// once the page has painted; a picture that could not be taken is said in the step.
package final class CapacitorTour {
    package struct Step {
        var name: String
        var ok: Bool
        var detail: String
        var screenshot: String?
    }

    let client: ControlClient
    let serverURL: String
    let token: String
    let outDirectory: String
    let stepTimeout: Double
    private(set) var steps: [Step] = []

    init(client: ControlClient, serverURL: String, token: String, outDirectory: String, stepTimeout: Double) {
        self.client = client
        self.serverURL = serverURL
        self.token = token
        self.outDirectory = outDirectory
        self.stepTimeout = stepTimeout
    }

    var passed: Bool { !steps.isEmpty && steps.allSatisfy(\.ok) }

    static let refusedAddress = "http://homesec.example.com:8081"
    static let plainHTTPRefused = "Plain HTTP is only supported for local network HomeSec servers. Use HTTPS for public hosts."
    static let tokenRejected = "API token was rejected. Paste the HomeSec API token and try again."

    package func run() {
        let s = "referenceApp.state"
        step("native-setup", "the app booted on the shell's ios runtime, found no server in the secret store and opened native setup",
             until: "window.referenceApp && \(s).booted && \(s).platform === 'ios' && location.pathname === '/native-setup'")
        guard passed else { return }

        submitSetup(url: Self.refusedAddress, token: "")
        step("plain-http-refused", "a public host over plain http was refused by the URL rules",
             until: "\(s).setup.status === 'error' && \(s).setup.error === \(Self.literal(Self.plainHTTPRefused))")

        submitSetup(url: serverURL + "/", token: "not-the-key")
        step("token-rejected", "health answered, cameras wanted a token, and the wrong token was rejected",
             until: "\(s).setup.status === 'error' && \(s).setup.probes.health === 'done' && \(s).setup.authRequired === true"
                + " && \(s).setup.error === \(Self.literal(Self.tokenRejected))")

        submitSetup(url: serverURL + "/", token: token)
        step("connected", "the right token was accepted and stored for \(serverURL); the live view shows the server's cameras",
             until: "location.pathname === '/live' && \(s).session.ready && \(s).session.serverBaseUrl === \(Self.literal(serverURL))"
                + " && \(s).live.running && \(s).live.cameras.length === 3")

        _ = client.evalUntil("\(s).registration.status === 'asking'", timeout: stepTimeout)
        // The permission question is open natively (the page asked), then answered as a person would.
        _ = client.send(["wait", "capacitor.plugins.PushNotifications.waitingForPermission=1", "--timeout", String(Int(stepTimeout))])
        let granted = client.send(["permission", "grant"])
        step("registered", "notifications were allowed (ctl permission grant), the device token came, and the device is in the server's registry",
             until: "\(s).registration.status === 'registered'", show: "registration", extra: { [self] in
                if case .failure(let error) = granted { return "permission grant: \(error.message)" }
                return registryProblem()
             })

        // From a known start: the window active (focus), as a person clicking into it would make it.
        send(["lifecycle", "focus"])
        _ = client.evalUntil("\(s).active === true", timeout: stepTimeout)
        send(["lifecycle", "background"])
        step("background", "the window went to the background: appStateChange(false), then pause, and the live view stopped",
             until: "\(s).lifecycle.join(',').endsWith('appStateChange:false,pause') && !\(s).live.running && \(s).live.stoppedBy === 'pause'",
             pictureOptional: "the window is hidden in the background", show: "live-chip")

        send(["lifecycle", "foreground"])
        let frames = "\(s).live.frames"
        step("foreground", "back in the foreground: resume, then appStateChange(true); the live view runs again",
             until: "\(s).lifecycle.join(',').endsWith('pause,resume,appStateChange:true') && \(s).live.running && \(frames) > 0", show: "live-chip")

        send(["open-url", "homesec://events/42?from=link"])
        step("link", "a homesec://events/42 link opened the event's route in the running app",
             until: "location.pathname === '/events/42' && \(s).links.some(l => l.via === 'appUrlOpen' && l.route === '/events/42?from=link')")

        send(["push", "tap", #"{"aps": {"alert": {"title": "Front door", "body": "Person detected"}}, "route": "/events/9?from=notification"}"#])
        step("notification", "opening a notification (ctl push tap) routed to its data.route, /events/9",
             until: "location.pathname + location.search === '/events/9?from=notification' && \(s).notifications.some(n => n.actionId === 'tap')")

        send(["eval", "document.querySelector('[data-tab=\"/settings\"]').click(); true"])
        step("settings", "Settings shows the server kept in the secret store and this device's registration",
             until: "location.pathname === '/settings' && document.getElementById('settings-server')?.textContent === \(Self.literal(serverURL))")
    }

    /// The steps and the final states, for state.json.
    func report() -> JSONValue {
        var object = JSONObject()
        object["steps"] = .array(steps.map { step in
            ["name": .string(step.name), "ok": .bool(step.ok), "detail": .string(step.detail),
             "screenshot": step.screenshot.map(JSONValue.string) ?? .null]
        })
        object["native"] = client.state() ?? .null
        object["page"] = (try? client.eval("JSON.parse(JSON.stringify(referenceApp.state))").get()) ?? .null
        return .object(object)
    }

    // MARK: - steps

    private func submitSetup(url: String, token: String) {
        _ = client.evalUntil("!!document.getElementById('setup-form')", timeout: stepTimeout)
        send(["eval", """
            (() => { const form = document.getElementById('setup-form');
                     form.url.value = \(Self.literal(url)); form.token.value = \(Self.literal(token));
                     form.requestSubmit(); return true; })()
            """])
    }

    private func send(_ words: [String]) {
        if case .failure(let error) = client.send(words) {
            printError("hostshell demo: \(words.first ?? "") failed: \(error.message)")
        }
    }

    /// Waits for `until` (a page expression), then photographs the window once the page painted.
    /// `show`: the id of the element the picture is about, scrolled into view first.
    private func step(_ name: String, _ detail: String, until condition: String, pictureOptional: String? = nil,
                      show: String? = nil, extra: (() -> String?)? = nil) {
        var ok = client.evalUntil(condition, timeout: stepTimeout)
        if let show { _ = client.eval("document.getElementById(\(Self.literal(show)))?.scrollIntoView({block: 'center'}); true") }
        var problems: [String] = []
        if !ok { problems.append("did not happen within \(Int(stepTimeout)) s (\(condition))") }
        if ok, let problem = extra?() {
            ok = false
            problems.append(problem)
        }
        let file = "capacitor-\(steps.count + 1)-\(name).png"
        let picture = photograph(file)
        if let failure = picture.failure {
            if let pictureOptional {
                problems.append("no picture: \(pictureOptional) (\(failure))")
            } else {
                ok = false
                problems.append("no picture: \(failure)")
            }
        }
        steps.append(Step(name: name, ok: ok, detail: problems.isEmpty ? detail : "\(detail) — " + problems.joined(separator: "; "),
                          screenshot: picture.failure == nil ? file : nil))
    }

    /// A PNG of the window, taken after the page's next two animation frames (what the step
    /// changed is on screen); a few tries if the renderer is between frames.
    private func photograph(_ file: String) -> (file: String, failure: String?) {
        let painted = client.evalUntil("referenceApp.state.painted >= referenceApp.state.renders", timeout: min(stepTimeout, 5))
        let path = outDirectory + "/" + file
        var last = ""
        for attempt in 0..<5 {
            if attempt > 0 { usleep(200_000) }
            switch client.send(["snapshot", path]) {
            case .success:
                if FileManager.default.fileExists(atPath: path) { return (file, nil) }
                last = "the app said it wrote \(path), but it is not there"
            case .failure(let error):
                last = error.message
            }
        }
        return (file, painted ? last : "\(last); the page had not painted")
    }

    /// Whether the server's registry holds, enabled, the device the page registered.
    private func registryProblem() -> String? {
        guard let id = try? client.eval("referenceApp.state.registration.device.id").get().stringValue else {
            return "the page has no registered device"
        }
        guard let answer = LoopbackHTTP.get(serverURL + "/__test/log"), answer.status == 200,
              let log = (try? JSONParser.parse(bytes: answer.body, maxDepth: 32))?.objectValue else {
            return "the server's log could not be read at \(serverURL)/__test/log"
        }
        let devices = log["devices"]?.arrayValue ?? []
        let found = devices.contains { $0.objectValue?["id"]?.stringValue == id && $0.objectValue?["enabled"]?.boolValue == true }
        return found ? nil : "the server's registry has no enabled device \(id) (\(devices.count) devices)"
    }

    static func literal(_ text: String) -> String { JSONWriter.string(.string(text)) }
}
