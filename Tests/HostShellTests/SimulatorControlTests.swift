import Foundation
import Testing

/// Issue 30 item 4 (first half) in the real app: the simulator's controls — privacy by kind,
/// appearance, contrast, text size, location and the pasteboard — change what a page of the
/// reference Studio (served from loopback) observes, and show in `ctl state`.
@Suite("Simulator controls: privacy, appearance, location, pasteboard (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct SimulatorControlTests {
    static let askNotifications = "window.__perm = undefined; Notification.requestPermission().then((r) => { window.__perm = r; }); true"
    static func query(_ name: String) -> String {
        "window.__q = undefined; navigator.permissions.query({ name: '\(name)' }).then((s) => { window.__q = s.state; }); true"
    }
    static let askLocation = "window.__geo = undefined; navigator.geolocation.getCurrentPosition((p) => { window.__geo = [p.coords.latitude, p.coords.longitude, p.coords.accuracy]; }, (e) => { window.__geo = 'error ' + e.code; }); true"

    @Test("privacy grant/revoke/reset: answered without a prompt, remembered in the profile, asked again after reset")
    func privacy() throws {
        let live = try LiveApp(["--allow-eval", "--grant", "camera", "--revoke", "location"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "privacy.notifications=ask", "privacy.location=denied",
                          "privacy.camera=granted", "privacy.microphone=ask", timeout: 60)
        // Given before launch: the page's question is answered at once, and the Permissions API
        // reports them. (WebKit itself reports a denied kind as "prompt" until the page has
        // asked in its document: measured on WebKitGTK 2.50.)
        #expect(try app.ctl("eval", Self.query("camera")).status == 0)
        #expect(try app.evalWhen("window.__q") as? String == "granted")
        #expect(try app.ctl("eval", Self.askLocation).status == 0)
        let geo = try app.evalWhen("window.__geo")
        #expect(geo as? String == "error 1", "denied without a prompt")
        #expect(try app.ctl("eval", Self.query("geolocation")).status == 0)
        #expect(try app.evalWhen("window.__q") as? String == "denied")

        let granted = try app.ctl("privacy", "grant", "notifications", "location")
        #expect(granted.status == 0, "\(granted.error)")
        _ = try app.state("privacy.notifications=granted", "privacy.location=granted", "permissions.remembered.geolocation=granted")
        #expect(try app.ctl("eval", Self.query("geolocation")).status == 0)
        #expect(try app.evalWhen("window.__q") as? String == "granted")
        #expect(try app.ctl("eval", Self.askNotifications).status == 0)
        #expect(try app.evalWhen("window.__perm") as? String == "granted")
        _ = try app.state("permissions.pending=null", "permissions.answered.0.how=remembered")

        #expect(try app.ctl("privacy", "revoke", "notifications").status == 0)
        _ = try app.state("privacy.notifications=denied")
        #expect(try app.ctl("eval", Self.askNotifications).status == 0)
        #expect(try app.evalWhen("window.__perm") as? String == "denied")
        _ = try app.state("permissions.pending=null")

        // Reset: asked again, with a prompt, which the open question's privacy grant then answers.
        #expect(try app.ctl("privacy", "reset", "all").status == 0)
        _ = try app.state("privacy.notifications=ask", "privacy.location=ask", "privacy.camera=ask", "permissions.remembered={}")
        #expect(try app.ctl("eval", Self.askNotifications).status == 0)
        _ = try app.state(#"permissions.pending.kinds=["notifications"]"#)
        #expect(try app.ctl("privacy", "grant", "notifications").status == 0)
        #expect(try app.evalWhen("window.__perm") as? String == "granted")
        _ = try app.state("permissions.pending=null", "privacy.notifications=granted", "permissions.answered.3.how=privacy")

        // Photos and motion: kept and reported, and the answer says WebKitGTK never asks for them.
        let photos = try app.ctl("privacy", "grant", "photos", "motion")
        let reach = (photos.result as? [String: Any])?["reach"] as? [String: String]
        #expect(reach?["photos"]?.contains("kept and reported only") == true && reach?["motion"]?.contains("never asks") == true, "\(String(describing: photos.result))")
        _ = try app.state("privacy.photos=granted", "privacy.motion=granted")
        let bad = try app.ctl("privacy", "grant", "camra")
        #expect(bad.status != 0 && bad.error.contains("did you mean camera?"), "\(bad.error)")
        let badLaunch = try HostShellBinary.run(["open", "--grant", "contacts"], environment: live.home.environment)
        #expect(badLaunch.status == 2 && badLaunch.stderr.contains("no privacy kind \"contacts\""), "\(badLaunch.stderr)")
    }

    @Test("location: a fixed point and a route reach navigator.geolocation; clear stops them")
    func location() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "location.mode=none", timeout: 60)
        #expect(try app.ctl("privacy", "grant", "location").status == 0)
        // No location set: WebKit asks the desktop's location service (GeoClue); there is none here.
        #expect(try app.ctl("eval", Self.askLocation).status == 0)
        let none = try app.evalWhen("window.__geo")
        print("measured: getCurrentPosition with no location set = \(String(describing: none))")
        #expect(none as? String == "error 2", "POSITION_UNAVAILABLE without a location service")
        let set = try app.ctl("location", "set", "48.8584,2.2945", "--accuracy", "12")
        #expect(set.status == 0, "\(set.error)")
        _ = try app.state("location.mode=fixed", "location.latitude=48.8584", "location.accuracy=12")
        #expect(try app.ctl("eval", Self.askLocation).status == 0)
        let fix = try #require(try app.evalWhen("window.__geo") as? [Double], "the page got no position")
        #expect(fix == [48.8584, 2.2945, 12])

        // A route: ~22 m north at 10 m/s, one position a second, the last on the end point.
        #expect(try app.ctl("eval", "window.__seen = []; window.__w = navigator.geolocation.watchPosition((p) => { window.__seen.push([p.coords.latitude, p.coords.longitude, p.coords.speed]); }); true").status == 0)
        // Each position is a state event: the whole state first, then the route's steps.
        let stream = try ObservabilityTests.EventReader(app, ["--kind", "state", "--count", "4", "--timeout", "30"])
        let route = try app.ctl("location", "route", "--speed", "10", "-33.8568,151.2153", "-33.8566,151.2153")
        #expect(route.status == 0, "\(route.error)")
        _ = try app.state("location.mode=route", "location.route.arrived=true", "location.latitude=-33.8566", timeout: 20)
        let seen = try #require(try app.evalWhen("window.__seen.length >= 3 && window.__seen") as? [[Any]])
        #expect((seen.last?[0] as? Double) == -33.8566, "the page ends on the route's last point: \(seen)")
        #expect(seen.contains { ($0[2] as? Double) == 10 }, "positions on the way carry the speed: \(seen)")
        let streamed = stream.finish()
        let moves = streamed.events.compactMap { (($0["changed"] as? [String: Any])?["location"] as? [String: Any])?["mode"] as? String }
        #expect(streamed.status == 0 && moves.filter { $0 == "route" }.count >= 2, "route steps are state events: \(streamed.events)")

        #expect(try app.ctl("eval", "window.__lost = undefined; navigator.geolocation.watchPosition(() => {}, (e) => { window.__lost = 'error ' + e.code; }); true").status == 0)
        #expect(try app.ctl("location", "clear").status == 0)
        _ = try app.state("location.mode=none")
        #expect(try app.evalWhen("window.__lost") as? String == "error 2", "a watching page is told the position is unavailable")
        let refused = try app.ctl("location", "set", "95,0")
        #expect(refused.status != 0 && refused.error.contains("LAT,LON"), "\(refused.error)")
    }

    @Test("appearance, contrast and text size: what the page's media queries and text see")
    func appearance() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "appearance.scheme=auto", "appearance.textSize=large", timeout: 60)
        let dark = "matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'"
        #expect(try app.ctl("appearance", "dark").status == 0)
        _ = try app.state("appearance.scheme=dark")
        #expect(try app.evalWhen("(\(dark)) === 'dark' && 'dark'") as? String == "dark")
        #expect(try app.ctl("appearance", "light").status == 0)
        #expect(try app.evalWhen("(\(dark)) === 'light' && 'light'") as? String == "light")

        // Increase contrast: the native chrome switches; what WebKit tells the page is measured.
        #expect(try app.ctl("contrast", "on").status == 0)
        _ = try app.state("appearance.contrast=true")
        let contrast = try app.ctl("eval", "matchMedia('(prefers-contrast: more)').matches").result as? Bool
        print("measured: prefers-contrast: more with contrast on = \(String(describing: contrast))")
        #expect(contrast == false, "the fidelity entry says WebKitGTK does not follow; update it if it now does")
        let state = try app.state("appearance.contrast=true")
        #expect(((state["appearance"] as? [String: Any])?["fidelity"] as? [String: Any])?["contrast"] != nil, "the difference is reported")

        // Text size: a 17 px paragraph is laid out at 17 × 53/17 = 53 px text at AX5.
        let measure = "(() => { let p = document.getElementById('__ts'); if (!p) { p = document.createElement('span'); p.id = '__ts'; p.style.cssText = 'font: 17px sans-serif; line-height: 1; position: absolute'; p.textContent = 'Hg'; document.body.appendChild(p); } return [p.getBoundingClientRect().height, parseFloat(getComputedStyle(p).fontSize)]; })()"
        let before = try #require(try app.ctl("eval", measure).result as? [Double])
        #expect(try app.ctl("text-size", "accessibility-extra-extra-extra-large").status == 0)
        _ = try app.state("appearance.textSize=accessibility-extra-extra-extra-large")
        let after = try #require(try app.evalWhen("(\(measure))[0] > 30 && (\(measure))") as? [Double])
        print("measured: 17px text before \(before), at AX5 \(after)")
        #expect(abs(after[0] / before[0] - 53.0 / 17.0) < 0.1, "text height scales by 53/17: \(before) → \(after)")
        #expect(try app.ctl("text-size", "large").status == 0)
        #expect(try app.evalWhen("(\(measure))[0] < 20 && (\(measure))") != nil)
        let bad = try app.ctl("text-size", "huge")
        #expect(bad.status != 0 && bad.error.contains("accessibility-medium"), "\(bad.error)")
    }

    @Test("pasteboard: ctl sets what the page reads, and gets what the page wrote")
    func pasteboard() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", timeout: 60)
        #expect(try app.ctl("privacy", "grant", "clipboard").status == 0)
        let set = try app.ctl("pasteboard", "set", "from ctl ✓")
        #expect(set.status == 0, "\(set.error)")
        _ = try app.state("pasteboard.hasText=true", "pasteboard.length=10")
        #expect(try app.ctl("eval", "window.__clip = undefined; navigator.clipboard.readText().then((t) => { window.__clip = t; }, (e) => { window.__clip = 'error ' + e.name; }); true").status == 0)
        #expect(try app.evalWhen("window.__clip") as? String == "from ctl ✓")

        let changes = try #require(try app.state("pasteboard.hasText=true")["pasteboard"] as? [String: Any])["changes"] as? Int ?? 0
        #expect(try app.ctl("eval", "window.__w = undefined; navigator.clipboard.writeText('from the page').then(() => { window.__w = 'ok'; }, (e) => { window.__w = 'error ' + e.name; }); true").status == 0)
        #expect(try app.evalWhen("window.__w") as? String == "ok")
        _ = try app.state("pasteboard.length=13")
        let got = try app.ctl("pasteboard", "get")
        #expect((got.result as? [String: Any])?["text"] as? String == "from the page")
        let after = try #require(try app.state("pasteboard.length=13")["pasteboard"] as? [String: Any])["changes"] as? Int ?? 0
        #expect(after > changes, "the page's write is a change")
    }

    @Test("a Capacitor app: --grant notifications answers PushNotifications without a question; revoke and reset change its answer; appearance and location reach its page")
    func capacitor() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let appId = HomeSecPluginLiveTests.appId()
        let app = try HomeSecPluginLiveTests.start(home, appId: appId, ["--grant", "notifications"])
        defer { app.stop() }
        _ = try app.state("privacy.notifications=granted", "privacy.camera=ask")
        func receive() throws -> String? {
            (try HomeSecPluginLiveTests.call(app, "PushNotifications", "checkPermissions")["data"] as? [String: Any])?["receive"] as? String
        }
        #expect(try receive() == "granted")
        let asked = try HomeSecPluginLiveTests.call(app, "PushNotifications", "requestPermissions")
        #expect((asked["data"] as? [String: Any])?["receive"] as? String == "granted", "no question: \(asked)")
        _ = try app.state("permissions.pending=null")

        #expect(try app.ctl("privacy", "revoke", "notifications").status == 0)
        #expect(try receive() == "denied")
        let kept = HomeSecPluginLiveTests.dataDirectory(home, appId).appendingPathComponent("push-permission.json")
        #expect(try String(contentsOf: kept, encoding: .utf8) == #"{"receive":"denied"}"#)
        #expect(try app.ctl("privacy", "reset", "notifications").status == 0)
        #expect(try receive() == "prompt")
        // Asked again: the question waits (no one to answer it here) until the privacy grant settles it.
        #expect(try app.ctl("eval", "window.__t.call('again', 'PushNotifications', 'requestPermissions', {})").status == 0)
        _ = try app.state("capacitor.plugins.PushNotifications.waitingForPermission=1")
        #expect(try app.ctl("privacy", "grant", "notifications").status == 0)
        let again = try #require(try app.evalWhen("window.__t.result('again')") as? String)
        #expect(again.contains(#""receive":"granted""#), "\(again)")

        #expect(try app.ctl("appearance", "dark").status == 0)
        #expect(try app.evalWhen("matchMedia('(prefers-color-scheme: dark)').matches") as? Bool == true)
        // The location reaches the app's page on its capacitor:// origin too.
        #expect(try app.ctl("privacy", "grant", "location").status == 0)
        #expect(try app.ctl("location", "set", "51.5007,-0.1246").status == 0)
        #expect(try app.ctl("eval", Self.askLocation).status == 0)
        #expect(try app.evalWhen("window.__geo") as? [Double] == [51.5007, -0.1246, 5])
    }
}
