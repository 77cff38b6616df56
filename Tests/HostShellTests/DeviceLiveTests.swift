import Foundation
import Testing

/// Issue 30 items 1–3 on real WebKit: a named device on HostShell's own Xvfb (the app run with
/// no DISPLAY), read by the page itself — devicePixelRatio, screen, the media queries, touch,
/// the safe area, the viewport — in both orientations, on every device of the catalogue (one app
/// each, turned once); the status bar's overrides; pictures at the device's resolution.
@Suite("Devices: the page sees the device on HostShell's own Xvfb, both ways up (real WebKit)", .serialized)
struct DeviceLiveTests {
    /// What the page reads, by its own script in its own world (not HostShell's probe).
    static let pageReads = """
        (() => {
          const q = (m) => matchMedia(m).matches;
          const d = document.createElement('div');
          d.style.cssText = 'position:fixed;padding:env(safe-area-inset-top,0px) env(safe-area-inset-right,0px) env(safe-area-inset-bottom,0px) env(safe-area-inset-left,0px)';
          document.documentElement.appendChild(d);
          const s = getComputedStyle(d);
          const inset = {top: parseFloat(s.paddingTop), left: parseFloat(s.paddingLeft), bottom: parseFloat(s.paddingBottom), right: parseFloat(s.paddingRight)};
          d.remove();
          return JSON.stringify({dpr: devicePixelRatio, sw: screen.width, sh: screen.height, iw: innerWidth, ih: innerHeight,
            portrait: q('(orientation: portrait)'), landscape: q('(orientation: landscape)'),
            coarse: q('(pointer: coarse)'), fine: q('(pointer: fine)'), hoverNone: q('(hover: none)'), anyCoarse: q('(any-pointer: coarse)'),
            touch: 'ontouchstart' in window, maxTouch: navigator.maxTouchPoints,
            orientationType: (screen.orientation && screen.orientation.type) || null, inset});
        })()
        """

    struct Expected {
        let name: String, width: Int, height: Int, scale: Int
        /// portrait (status bar, home indicator), landscape (status bar, home indicator)
        let portraitBars: (Int, Int), landscapeBars: (Int, Int)
    }

    static let devices = [
        Expected(name: "iphone-se", width: 375, height: 667, scale: 2, portraitBars: (20, 0), landscapeBars: (0, 0)),
        Expected(name: "iphone-16-pro", width: 402, height: 874, scale: 3, portraitBars: (62, 34), landscapeBars: (0, 21)),
        Expected(name: "ipad-air", width: 820, height: 1180, scale: 2, portraitBars: (24, 20), landscapeBars: (24, 20)),
        Expected(name: "iphone-16", width: 393, height: 852, scale: 3, portraitBars: (59, 34), landscapeBars: (0, 21)),
        Expected(name: "iphone-16-pro-max", width: 440, height: 956, scale: 3, portraitBars: (62, 34), landscapeBars: (0, 21)),
        Expected(name: "ipad-mini", width: 744, height: 1133, scale: 2, portraitBars: (24, 20), landscapeBars: (24, 20)),
        Expected(name: "ipad-pro-13", width: 1032, height: 1376, scale: 2, portraitBars: (24, 20), landscapeBars: (24, 20)),
    ]

    @Test("each device, portrait then turned: scale, screen and media queries as claimed, the rest as the fidelity report says",
          arguments: DeviceLiveTests.devices.map(\.name))
    func device(_ name: String) throws {
        let expected = try #require(Self.devices.first { $0.name == name })
        let home = TemporaryHome()
        defer { home.remove() }
        // No DISPLAY: HostShell starts its own Xvfb at the device's size and scale.
        let app = try RunningApp(home: home, arguments: [CapacitorLiveTests.project, "--device", name, "--allow-eval"], command: "capacitor",
                                 environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        defer { app.stop() }
        _ = try app.state("screen=page", timeout: 60)
        for (orientation, turned) in [("portrait", false), ("landscape", true)] {
            if turned {
                let rotate = try app.ctl("rotate")
                #expect(rotate.status == 0, "\(rotate.error)")
            }
            let state = try app.state("device.orientation=\(orientation)", "device.measured=true", timeout: 30)
            let device = try #require(state["device"] as? [String: Any])
            let (width, height) = turned ? (expected.height, expected.width) : (expected.width, expected.height)
            let bars = turned ? expected.landscapeBars : expected.portraitBars
            #expect(device["name"] as? String == name && device["scale"] as? Int == expected.scale)
            #expect((device["size"] as? [String: Int]) == ["width": width, "height": height])
            #expect(device["display"] as? String == "HostShell's own Xvfb")
            let fidelity = try #require(device["fidelity"] as? [[String: Any]])
            func entry(_ property: String) -> [String: Any] { fidelity.first { $0["property"] as? String == property } ?? [:] }
            // The page's own reading, once the window has turned.
            var page: [String: Any] = [:]
            let read = try app.evalWhen("(() => { const r = JSON.parse(\(Self.pageReads)); return r.\(orientation) ? JSON.stringify(r) : null; })()")
            page = (try? JSONSerialization.jsonObject(with: Data(((read as? String) ?? "{}").utf8))) as? [String: Any] ?? [:]
            // Claimed: the device's scale and its media orientation, and (portrait, as it started) its screen.
            #expect(page["dpr"] as? Double == Double(expected.scale), "\(name) \(orientation): devicePixelRatio \(page["dpr"] ?? "nil")")
            #expect(entry("devicePixelRatio")["matches"] as? Bool == true)
            #expect(entry("orientationMedia")["matches"] as? Bool == true)
            let screen = ["width": page["sw"] as? Int ?? -1, "height": page["sh"] as? Int ?? -1]
            #expect((entry("screen")["here"] as? [String: Int]) == screen, "the report says what the page reads")
            if !turned {
                #expect(screen == ["width": width, "height": height], "\(name): screen is the device's")
            } else {
                // Xvfb's screen cannot grow past the framebuffer it started with (measured): the
                // report says so rather than pretend.
                #expect(entry("screen")["matches"] as? Bool == (screen == ["width": width, "height": height]))
                if entry("screen")["matches"] as? Bool == false { #expect(entry("screen")["why"] != nil) }
            }
            // The page is laid out between the status bar and the home indicator.
            #expect(page["iw"] as? Int == width, "\(name) \(orientation): innerWidth")
            #expect(page["ih"] as? Int == height - bars.0 - bars.1, "\(name) \(orientation): innerHeight \(page["ih"] ?? "nil")")
            #expect((entry("viewport")["here"] as? [String: Int]) == ["width": width, "height": height - bars.0 - bars.1])
            // Not given by WebKitGTK here: what the report says is what the page reads.
            let inset = page["inset"] as? [String: Double] ?? [:]
            #expect((entry("safeAreaInsets")["here"] as? [String: Double]) == inset, "the report says what the page reads")
            #expect(entry("safeAreaInsets")["matches"] as? Bool == ((entry("safeAreaInsets")["phone"] as? [String: Double]) == inset))
            #expect(entry("pointer")["here"] as? String == ((page["coarse"] as? Bool) == true ? "coarse" : (page["fine"] as? Bool) == true ? "fine" : "none"))
            #expect(entry("hover")["here"] as? String == ((page["hoverNone"] as? Bool) == true ? "none" : "hover"))
            #expect(entry("touchEvents")["here"] as? Bool == page["touch"] as? Bool)
            #expect(entry("maxTouchPoints")["here"] as? Int == page["maxTouch"] as? Int)
            #expect((entry("screenOrientation")["here"] as? String) == (page["orientationType"] as? String))
            for item in fidelity where item["matches"] as? Bool != true { #expect(item["why"] as? String != nil, "\(item)") }
            // The picture: the window at the device's resolution, the page's area inside it.
            let shot = home.root.appendingPathComponent("\(name)-\(orientation).png").path
            #expect(try app.ctl("snapshot", shot, "--page").status == 0)
            #expect(Self.pngSize(shot) == (width * expected.scale, (height - bars.0 - bars.1) * expected.scale), "\(name) \(orientation): \(Self.pngSize(shot))")
        }
    }

    @Test("ctl status-bar overrides what the status bar shows, checks its values, and clear returns to the clock")
    func statusBar() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let app = try RunningApp(home: home, arguments: [CapacitorLiveTests.project, "--device", "iPhone 16", "--allow-eval"], command: "capacitor",
                                 environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        defer { app.stop() }
        _ = try app.state("screen=page", "device.name=iphone-16", "device.statusBar.overridden=false", timeout: 60)
        // The event stream reports the change: its first state event is the whole state, the next the change.
        let stream = Process(), out = Pipe()
        stream.executableURL = HostShellBinary.url
        stream.arguments = ["ctl", app.socket, "events", "--kind", "state", "--timeout", "30"]
        stream.environment = HostShellBinary.environment(home.environment)
        stream.standardOutput = out
        stream.standardError = FileHandle.nullDevice
        try stream.run()
        var streamed = ""
        #expect(waitUntil(timeout: 20) {
            streamed += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            return streamed.contains("\"event\":\"state\"")
        }, "the stream's first state event")
        let set = try app.ctl("status-bar", "--time", "9:41", "--battery", "100", "--charging", "--cellular", "4", "--wifi", "3", "--carrier", "HostShell")
        #expect(set.status == 0, "\(set.error)")
        _ = try app.state("device.statusBar.time=9:41", "device.statusBar.battery=100", "device.statusBar.charging=true",
                          "device.statusBar.carrier=HostShell", "device.statusBar.overridden=true", "device.statusBar.height=59")
        #expect(waitUntil(timeout: 20) {
            streamed += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            return streamed.split(separator: "\n").dropFirst().contains { $0.contains("\"device\"") && $0.contains("\"time\":\"9:41\"") }
        }, "the override is an event of the device's")
        stream.terminate()
        stream.waitUntilExit()
        let refused = try app.ctl("status-bar", "--battery", "120")
        #expect(refused.status != 0 && refused.error.contains("0 to 100"), "\(refused.error)")
        #expect(try app.ctl("status-bar", "--no-charging", "--battery", "15").status == 0)
        _ = try app.state("device.statusBar.time=9:41", "device.statusBar.battery=15", "device.statusBar.charging=false")
        let shot = home.root.appendingPathComponent("window.png").path
        #expect(try app.ctl("snapshot", shot).status == 0)
        let size = Self.pngSize(shot)
        #expect(size.width == 393 * 3 && size.height >= 852 * 3, "the window at @3, the device's screen under its header bar: \(size)")
        #expect(try app.ctl("status-bar", "clear").status == 0)
        _ = try app.state("device.statusBar.overridden=false", "device.statusBar.battery=100")
        #expect(try app.evalWhen("window.innerHeight") as? Int == 852 - 59 - 34)
    }

    @Test("a Studio window carries the device too: its scale and screen, its chrome, rotate and status-bar")
    func studio() throws {
        let home = TemporaryHome()
        let server = try ReferenceServer()
        defer { server.stop(); home.remove() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: ["--device", "iPad mini", "--allow-eval"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        defer { app.stop() }
        let state = try app.state("screen=page", "device.name=ipad-mini", "device.measured=true", "device.statusBar.shown=true", timeout: 60)
        let fidelity = ((state["device"] as? [String: Any])?["fidelity"] as? [[String: Any]]) ?? []
        #expect(fidelity.first { $0["property"] as? String == "devicePixelRatio" }?["here"] as? Int == 2)
        #expect(try app.evalWhen("devicePixelRatio === 2 && screen.width === 744 && screen.height === 1133") as? Bool == true)
        #expect(try app.ctl("rotate", "landscape").status == 0)
        _ = try app.state("device.orientation=landscape", "device.size.width=1133", "device.measured=true")
        #expect(try app.ctl("status-bar", "--time", "21:05").status == 0)
        _ = try app.state("device.statusBar.time=21:05")
        let sideways = try HostShellBinary.run(["ctl", app.socket, "rotate", "sideways"])
        #expect(sideways.status != 0 && sideways.stderr.contains("portrait or landscape"), "\(sideways.stderr)")
    }

    @Test("desktop is no device: no chrome, no fidelity entries, and rotate and status-bar say what to do")
    func desktop() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let app = try RunningApp(home: home, arguments: [CapacitorLiveTests.project, "--device", "desktop", "--allow-eval"], command: "capacitor",
                                 environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        defer { app.stop() }
        _ = try app.state("screen=page", "device.name=desktop", "device.fidelity=[]", "device.scale=1", timeout: 60)
        let rotate = try app.ctl("rotate")
        #expect(rotate.status != 0 && rotate.error.contains("--device NAME"), "\(rotate.error)")
        let bar = try app.ctl("status-bar", "--time", "9:41")
        #expect(bar.status != 0 && bar.error.contains("--device NAME"), "\(bar.error)")
        // The desktop's headless screen is today's, at scale 1; the page fills the window under its header bar.
        #expect(try app.evalWhen("devicePixelRatio === 1 && screen.width === 1440 && screen.height === 1000") as? Bool == true)
    }

    @Test("hostshell devices lists the catalogue; --json has the fidelity section; an unknown --device lists the names")
    func listing() throws {
        let table = try HostShellBinary.run(["devices"])
        #expect(table.status == 0 && table.stdout.contains("iphone-16-pro-max") && table.stdout.contains("1032x1376"))
        let json = try HostShellBinary.run(["devices", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 7)
        let fidelity = ((list.first?["orientations"] as? [String: Any])?["portrait"] as? [String: Any])?["fidelity"] as? [[String: Any]]
        #expect(fidelity?.contains { $0["property"] as? String == "safeAreaInsets" && $0["matches"] as? Bool == false } == true)
        let unknown = try HostShellBinary.run(["capacitor", CapacitorLiveTests.project, "--device", "iphone-17", "--check"])
        #expect(unknown.status == 2 && unknown.stderr.contains("iphone-16-pro") && unknown.stderr.contains("hostshell devices"), "\(unknown.stderr)")
        let turnedDesktop = try HostShellBinary.run(["capacitor", CapacitorLiveTests.project, "--device", "desktop", "--orientation", "landscape", "--check"])
        #expect(turnedDesktop.status == 2 && turnedDesktop.stderr.contains("--orientation"), "\(turnedDesktop.stderr)")
    }

    /// A PNG's width and height, from its header.
    static func pngSize(_ path: String) -> (width: Int, height: Int) {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 24 else { return (0, 0) }
        func number(_ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
