import Foundation
import HostCore
import Testing

@Suite("The simulator's controls: locale, time zone, erase, root trust, recording")
struct DeviceControlTests {
    /// Where a test's files would go (nothing is written: the rules only read the paths).
    let temporary = FileManager.default.temporaryDirectory.path
    private func command(_ words: [String]) throws -> ControlCommand {
        try ControlRequest.decode(try ControlRequest.line(fromArguments: words, workingDirectory: "/home/me")).get().command
    }

    private func refusal(_ words: [String]) -> String? {
        do { _ = try command(words); return nil } catch let error as ControlError { return error.message } catch { return "\(error)" }
    }

    @Test("ctl words decode to each control, relative files made absolute against the caller's directory")
    func words() throws {
        #expect(try command(["locale", "fr-FR"]) == .device(.locale(try LocaleTag.parse("fr-FR").get())))
        #expect(try command(["timezone", "Europe/Paris"]) == .device(.timeZone("Europe/Paris")))
        #expect(try command(["erase"]) == .device(.erase))
        #expect(try command(["trust-root-cert", "add", "ca.pem"]) == .device(.trustRootCert(path: "/home/me/ca.pem")))
        #expect(try command(["trust-root-cert", "clear"]) == .device(.clearRootCerts))
        #expect(try command(["record", "start", temporary + "/run.webm"]) == .device(.recordStart(path: temporary + "/run.webm")))
        #expect(try command(["record", "stop"]) == .device(.recordStop))
        #expect(ControlCommand.names.contains("trust-root-cert"))
        #expect(ControlRequest.coreCommands.contains { $0.synopsis.hasPrefix("record start") })
    }

    @Test("bad words and requests are refused with what to give")
    func refusals() {
        #expect(refusal(["erase", "now"])?.contains("no arguments") == true)
        #expect(refusal(["locale"])?.contains("fr-FR") == true)
        #expect(refusal(["locale", "french"])?.contains("not a locale tag") == true)
        #expect(refusal(["timezone", "../etc/passwd"])?.contains("Area/City") == true)
        #expect(refusal(["trust-root-cert", "add"])?.contains("add FILE.pem") == true)
        #expect(refusal(["record", "start", temporary + "/run.avi"])?.contains(".webm") == true)
        #expect(refusal(["record", "pause"])?.contains("start FILE.webm") == true)
        let relative = ControlRequest.decode(#"{"command":"record","action":"start","path":"run.webm"}"#)
        #expect((try? relative.get()) == nil)
        if case .failure(let failure) = relative { #expect(failure.error.message.contains("absolute")) }
        let noAction = ControlRequest.decode(#"{"command":"trust-root-cert"}"#)
        if case .failure(let failure) = noAction { #expect(failure.error.message.contains("add")) } else { Issue.record("accepted") }
    }

    @Test("locale tags: BCP 47 shape in canonical case, with WebKit's languages and the POSIX name")
    func localeTags() throws {
        let tag = try LocaleTag.parse("FR-fr").get()
        #expect(tag.tag == "fr-FR")
        #expect(tag.preferredLanguages == ["fr-FR", "fr"])
        #expect(tag.posixName == "fr_FR.UTF-8")
        #expect(try LocaleTag.parse("zh-hant-tw").get().tag == "zh-Hant-TW")
        #expect(try LocaleTag.parse("es-419").get().region == "419")
        #expect(try LocaleTag.parse("de").get().preferredLanguages == ["de"])
        for bad in ["", "f", "french", "fr-", "fr-FRA-x", "fr_FR", "fr-FR-FR", "1a-FR", "fr-F1", "fr-FR;q=1", "ﬀ-FR"] {
            #expect((try? LocaleTag.parse(bad).get()) == nil, "\(bad) was taken")
        }
    }

    @Test("time zones: Area/City shape, and one that exists in zoneinfo")
    func timeZones() {
        #expect(TimeZoneRule.shapeProblem("America/Argentina/Buenos_Aires") == nil)
        #expect(TimeZoneRule.shapeProblem("Etc/GMT+5") == nil)
        #expect(TimeZoneRule.shapeProblem("UTC") == nil)
        for bad in ["", "/etc/passwd", "Europe/../../etc", "Europe//Paris", "Europe/Paris ", "+01:00", "Europe/Pa\u{0}ris"] {
            #expect(TimeZoneRule.shapeProblem(bad) != nil, "\(bad) was taken")
        }
        #expect(TimeZoneRule.problem("Europe/Paris", isZoneFile: true) == nil)
        #expect(TimeZoneRule.problem("Europe/Atlantis", isZoneFile: false)?.contains("/usr/share/zoneinfo") == true)
    }

    @Test("root trust: only a chain to the app's own root, for the host asked, is let through")
    func rootTrust() {
        #expect(RootTrust.decide(host: "127.0.0.1", trustedRoots: 1, verification: []) == .allow)
        // Checked before loading: https, a host not let through yet, some root trusted.
        #expect(RootTrust.checksBeforeLoading("https://127.0.0.1:8443/", host: "127.0.0.1", trustedRoots: 1, allowedHosts: []))
        #expect(RootTrust.checksBeforeLoading("HTTPS://a.lan/", host: "a.lan", trustedRoots: 2, allowedHosts: ["b.lan"]))
        #expect(!RootTrust.checksBeforeLoading("https://a.lan/", host: "a.lan", trustedRoots: 1, allowedHosts: ["a.lan"]), "let through already")
        #expect(!RootTrust.checksBeforeLoading("https://a.lan/", host: "a.lan", trustedRoots: 0, allowedHosts: []), "no root")
        #expect(!RootTrust.checksBeforeLoading("http://a.lan/", host: "a.lan", trustedRoots: 1, allowedHosts: []), "no TLS")
        #expect(!RootTrust.checksBeforeLoading("capacitor://localhost/", host: "localhost", trustedRoots: 1, allowedHosts: []))
        #expect(!RootTrust.checksBeforeLoading("https:///x", host: "", trustedRoots: 1, allowedHosts: []))
        guard case .refuse(let none) = RootTrust.decide(host: "a.lan", trustedRoots: 0, verification: []) else { Issue.record("allowed"); return }
        #expect(none.contains("trust-root-cert"))
        guard case .refuse(let other) = RootTrust.decide(host: "a.lan", trustedRoots: 1, verification: .unknownCA) else { Issue.record("allowed"); return }
        #expect(other.contains("not signed by a root this app trusts"))
        guard case .refuse(let both) = RootTrust.decide(host: "a.lan", trustedRoots: 2, verification: [.badIdentity, .expired]) else { Issue.record("allowed"); return }
        #expect(both.contains("not made out to a.lan") && both.contains("expired"))
        guard case .refuse = RootTrust.decide(host: "a.lan", trustedRoots: 1, verification: RootTrust.Flags(rawValue: 1 << 9)) else { Issue.record("allowed"); return }
    }

    @Test("root certificate files: PEM certificates only")
    func rootFiles() {
        let cert = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
        #expect(RootTrust.fileProblem(cert, path: "ca.pem") == nil)
        #expect(RootTrust.certificateCount(cert + cert) == 2)
        #expect(RootTrust.fileProblem("", path: "ca.pem")?.contains("no PEM certificate") == true)
        #expect(RootTrust.fileProblem(cert + "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n", path: "ca.pem")?.contains("private key") == true)
        #expect(RootTrust.fileProblem("-----BEGIN CERTIFICATE-----\nMIIB", path: "ca.pem")?.contains("cut short") == true)
        #expect(RootTrust.fileProblem(String(repeating: "a", count: RootTrust.maxFileBytes + 1), path: "big.pem")?.contains("KiB") == true)
    }

    @Test("recording: the pipeline by the file's kind, finished on interrupt, and the packages to install")
    func recording() {
        #expect(ScreenRecording.container(temporary + "/a.webm") == .webm)
        #expect(ScreenRecording.container(temporary + "/A.MP4") == .mp4)
        #expect(ScreenRecording.container(temporary + "/a.webm/b") == nil)
        #expect(ScreenRecording.fileProblem(temporary + "/a") != nil)
        let arguments = ScreenRecording.launchArguments(path: temporary + "/a.webm", container: .webm, size: (1179, 2700))
        #expect(arguments.first == "-e")
        #expect(Array(arguments[2...9]) == ["fdsrc", "fd=0", "!", "rawvideoparse", "width=1179", "height=2700", "format=bgra", "framerate=15/1"],
                "raw frames of the window's size on standard input")
        #expect(arguments.contains("vp8enc") && arguments.contains("webmmux"))
        #expect(arguments.last == "location=\(temporary)/a.webm")
        #expect(ScreenRecording.launchArguments(path: "/a.mp4", container: .mp4, size: (380, 100)).contains("x264enc"))
        let even = ScreenRecording.frameSize(width: 381, height: 101, container: .mp4)
        #expect(even.width == 380 && even.height == 100, "H.264 gets even sides: the odd last column and row left out")
        let webm = ScreenRecording.frameSize(width: 381, height: 101, container: .webm)
        #expect(webm.width == 381 && webm.height == 101)
        #expect(ScreenRecording.slot(elapsed: 0) == 0 && ScreenRecording.slot(elapsed: 0.07) == 1 && ScreenRecording.slot(elapsed: 2) == 30)
        #expect(ScreenRecording.slot(elapsed: -1) == 0)
        #expect(ScreenRecording.elements(.webm) == ["fdsrc", "rawvideoparse", "videoconvert", "vp8enc", "webmmux", "filesink"])
        let message = ScreenRecording.missingMessage(["rawvideoparse", "vp8enc", "webmmux"])
        #expect(message.contains("gstreamer1.0-plugins-base") && message.contains("gstreamer1.0-plugins-good") && message.contains("install-deps"))
        for element in ScreenRecording.elements(.webm) + ScreenRecording.elements(.mp4) { #expect(ScreenRecording.packages[element] != nil) }
    }

    @Test("simctl's words map to ctl's, the other helpers' commands included")
    func simctl() throws {
        func ctl(_ words: String) throws -> [String] { try SimctlMapping.map(words.split(separator: " ").map(String.init)).get().ctl }
        #expect(try ctl("privacy grant camera") == ["privacy", "grant", "camera"])
        #expect(try ctl("privacy reset location-always") == ["privacy", "reset", "location"])
        #expect(try ctl("ui appearance dark") == ["appearance", "dark"])
        #expect(try ctl("ui increase_contrast enabled") == ["contrast", "on"])
        #expect(try ctl("ui increase_contrast disabled") == ["contrast", "off"])
        #expect(try ctl("ui content_size extra-large") == ["text-size", "extra-large"])
        #expect(try ctl("location set 48.85,2.35") == ["location", "set", "48.85,2.35"])
        #expect(try ctl("location start --speed 20 48.85,2.35 48.86,2.36") == ["location", "route", "--speed", "20", "48.85,2.35", "48.86,2.36"])
        #expect(try ctl("location start --speed=5 -33.8,151.2 -33.9,151.3") == ["location", "route", "--speed", "5", "-33.8,151.2", "-33.9,151.3"])
        #expect(try ctl("location clear") == ["location", "clear"])
        let copy = try SimctlMapping.map(["pbcopy"]).get()
        #expect(copy.ctl == ["pasteboard", "set"] && copy.readsStandardInput)
        let paste = try SimctlMapping.map(["pbpaste"]).get()
        #expect(paste.ctl == ["pasteboard", "get"] && paste.printsText)
        #expect(try ctl("status_bar override --time 9:41 --batteryLevel 100 --batteryState charging --cellularBars 4 --wifiBars 3 --operatorName Carrier")
            == ["status-bar", "--time", "9:41", "--battery", "100", "--charging", "--cellular", "4", "--wifi", "3", "--carrier", "Carrier"])
        #expect(try ctl("status_bar override --batteryState discharging") == ["status-bar", "--no-charging"])
        #expect(try ctl("status_bar override --batteryState charged") == ["status-bar", "--charging"])
        #expect(try ctl("status_bar clear") == ["status-bar", "clear"])
        #expect(try ctl("erase") == ["erase"])
        #expect(try ctl("keychain add-root-cert ca.pem") == ["trust-root-cert", "add", "ca.pem"])
        #expect(try ctl("keychain reset") == ["trust-root-cert", "clear"])
        let record = try SimctlMapping.map(["io", "recordVideo", "run.webm"]).get()
        #expect(record.ctl == ["record", "start", "run.webm"] && record.untilInterrupted == ["record", "stop"])
        #expect(try ctl("io screenshot a.png") == ["snapshot", "a.png"])
        #expect(try ctl("openurl homesec://x") == ["open-url", "homesec://x"])
        #expect(try ctl("rotate") == ["rotate"])
        #expect(try ctl("locale de-DE") == ["locale", "de-DE"])
        #expect(try ctl("timezone Asia/Tokyo") == ["timezone", "Asia/Tokyo"])
    }

    @Test("simctl words that do not fit are refused with the usage")
    func simctlRefusals() {
        func message(_ words: String) -> String? {
            if case .failure(let error) = SimctlMapping.map(words.split(separator: " ").map(String.init)) { return error.message }
            return nil
        }
        #expect(message("")?.contains("privacy") == true)
        #expect(message("privacy allow camera")?.contains("grant, revoke or reset") == true)
        #expect(message("ui appearance sepia")?.contains("light or dark") == true)
        #expect(message("ui increase_contrast yes")?.contains("enabled or disabled") == true)
        #expect(message("location start 1,2")?.contains("two points") == true)
        #expect(message("location start --interval 2 1,2 3,4")?.contains("--interval") == true)
        #expect(message("status_bar override --dataNetwork 5g")?.contains("--dataNetwork") == true)
        #expect(message("status_bar override --batteryState full")?.contains("charging, charged or discharging") == true)
        #expect(message("pbcopy hello")?.contains("standard input") == true)
        #expect(message("eraze")?.contains("did you mean erase") == true)
        #expect(message("io recordVideo")?.contains("recordVideo FILE") == true)
        // Every row of the help table names a command the mapping takes (or `hostshell devices`).
        for row in SimctlMapping.table where !row.hostshell.hasPrefix("hostshell devices") {
            let first = String(row.simctl.split(separator: " ")[0])
            #expect(SimctlMapping.commands.contains(first), "\(row.simctl)")
        }
        #expect(SimctlMapping.helpTable.contains("keychain add-root-cert FILE"))
    }

    @Test("erase forgets every remembered permission answer, and saves that")
    func permissionsForgotten() {
        var machine = PermissionMachine(attended: false, remembered: [.camera: true, .geolocation: false])
        #expect(machine.reduce(.forgetAll) == [.save([:])])
        #expect(machine.remembered.isEmpty && machine.queryState(.camera) == .prompt)
        #expect(machine.reduce(.forgetAll) == [], "nothing left to forget: nothing written")
        #expect(machine.reduce(.asked(id: 1, kinds: [.camera])) == [.answer(id: 1, grant: false)], "unattended, asked again: denied, not remembered granted")
    }
}
