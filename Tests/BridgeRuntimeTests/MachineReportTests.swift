import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("hostshell doctor: what the machine's facts mean")
struct MachineReportTests {
    static let desktop = MachineFacts(displayName: ":0", displayOpens: true, programs: ["Xvfb", "xvfb-run", "dbus-run-session", "WebKitWebDriver"],
                                      sessionBus: true, secretServiceProblem: nil, notificationServer: true, screenSaver: true,
                                      gpuRenderNode: true, userNamespaces: true)

    func check(_ name: String, _ facts: MachineFacts) -> MachineCheck {
        MachineReport.checks(facts).first { $0.name == name }!
    }

    @Test func aDesktopHasEverything() {
        let checks = MachineReport.checks(Self.desktop)
        #expect(checks.allSatisfy { $0.status == .ok && $0.advice.isEmpty })
        #expect(MachineReport.exitStatus(checks) == 0)
        #expect(MachineReport.text(checks).hasSuffix("HostShell can run here."))
    }

    @Test func noDisplayIsFineWithXvfbAndFatalWithout() {
        var facts = Self.desktop
        facts.displayName = nil
        #expect(check("display", facts).status == .limited)
        #expect(check("display", facts).advice.contains("xvfb-run -a"))
        facts.programs.remove("Xvfb")
        #expect(check("display", facts).status == .missing)
        #expect(check("display", facts).advice.contains("apt-get install xvfb"))
        #expect(check("xvfb", facts).status == .limited)
        #expect(MachineReport.exitStatus(MachineReport.checks(facts)) == 1)
        #expect(MachineReport.text(MachineReport.checks(facts)).contains("cannot open its window here until this is fixed: display"))
    }

    @Test func aDisplayThatDoesNotOpenIsNamed() {
        var facts = Self.desktop
        facts.displayOpens = false
        #expect(check("display", facts).found == ":0 is set but does not open")
    }

    @Test func noBusLimitsKeyringAndNotificationsAndSaysHow() {
        var facts = Self.desktop
        facts.sessionBus = false
        #expect(check("session-bus", facts).advice.contains("dbus-run-session --"))
        facts.programs.remove("dbus-run-session")
        #expect(check("session-bus", facts).advice.contains("apt-get install dbus-daemon"))
        facts.secretServiceProblem = "no session bus"
        #expect(check("secret-service", facts).status == .limited)
        #expect(check("secret-service", facts).found.contains("no session bus"))
        #expect(check("secret-service", facts).advice.contains("gnome-keyring"))
        #expect(MachineReport.exitStatus(MachineReport.checks(facts)) == 0)  // the app still runs
    }

    @Test func optionalPiecesSayWhatTheyLimit() {
        var facts = Self.desktop
        facts.notificationServer = false; facts.screenSaver = false; facts.programs.remove("WebKitWebDriver"); facts.gpuRenderNode = false
        #expect(check("notifications", facts).advice.contains("ctl state"))
        #expect(check("screen-saver", facts).advice.contains("kiosk"))
        #expect(check("webdriver", facts).advice.contains("webkit2gtk-driver"))
        #expect(check("gpu", facts).advice.contains("CPU"))
        #expect(MachineReport.exitStatus(MachineReport.checks(facts)) == 0)
    }

    @Test func theSandboxNeedsUserNamespacesOrAnExplicitChoice() {
        var facts = Self.desktop
        facts.userNamespaces = false
        #expect(check("web-sandbox", facts).status == .missing)
        #expect(check("web-sandbox", facts).advice.contains("WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS=1"))
        facts.sandboxDisabled = true
        #expect(check("web-sandbox", facts).status == .limited)
        facts.userNamespaces = true
        #expect(check("web-sandbox", facts).status == .ok)
        #expect(check("web-sandbox", facts).advice.contains("unset"))
    }

    @Test func jsonNamesEveryCheck() throws {
        let json = MachineReport.json(MachineReport.checks(Self.desktop))
        #expect(json.objectValue?["canRun"] == .bool(true))
        let names = json.objectValue?["checks"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue }
        #expect(names == ["display", "xvfb", "session-bus", "secret-service", "notifications", "screen-saver", "webdriver", "gpu", "web-sandbox",
                          "media-hlsdemux", "media-tsdemux", "media-h264parse", "media-avdec_h264", "media-aacparse", "media-avdec_aac", "media-hls"])
    }

    @Test func eachMediaElementMissingNamesItsPackageAndOnlyLimits() {
        var facts = Self.desktop
        facts.mediaElements = ["aacparse", "h264parse"]
        #expect(check("media-hlsdemux", facts).status == .limited)
        #expect(check("media-hlsdemux", facts).advice.contains("apt-get install gstreamer1.0-plugins-bad"))
        #expect(check("media-avdec_h264", facts).advice.contains("apt-get install gstreamer1.0-libav"))
        #expect(check("media-avdec_aac", facts).found.contains("AAC audio"))
        #expect(check("media-h264parse", facts).status == .ok)
        #expect(MachineReport.exitStatus(MachineReport.checks(facts)) == 0, "media limits what pages play; the window still opens")
        facts.mediaElements = nil
        #expect(check("media-tsdemux", facts).found == "GStreamer could not be loaded")
    }

    @Test func webKitPlaysHLSOnlyWithItsSwitchWhichAPersonMayTurnOff() {
        // HostShell sets the switch when the environment does not name it; a person's value wins.
        let set = MediaSupport.settings { _ in nil }
        #expect(set.map(\.name) == ["WEBKIT_GST_ENABLE_HLS_SUPPORT"] && set.map(\.value) == ["1"])
        #expect(MediaSupport.settings { $0 == "WEBKIT_GST_ENABLE_HLS_SUPPORT" ? "0" : nil }.isEmpty)
        var facts = Self.desktop
        #expect(check("media-hls", facts).status == .ok)
        facts.hlsValue = "0"
        #expect(check("media-hls", facts).status == .limited)
        #expect(check("media-hls", facts).found.contains("\"0\""))
        #expect(check("media-hls", facts).advice.contains("unset WEBKIT_GST_ENABLE_HLS_SUPPORT"))
        facts.hlsValue = nil
        #expect(check("media-hls", facts).found.contains("unset"))
    }

    @Test func hlsFilesAreServedWithTheirTypes() {
        #expect(MediaTypes.mimeType(forPath: "/live/index.m3u8") == "application/vnd.apple.mpegurl")
        #expect(MediaTypes.mimeType(forPath: "/live/segment00001.TS") == "video/mp2t")
    }
}
