import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Foundation
import Testing

/// Desktop entries as text (the Desktop Entry Specification's escapes and `Exec` quoting), and
/// the entry that makes a Capacitor app the handler of its link schemes.
@Suite("Desktop entries: escaping, Exec quoting, a Capacitor app's link handler")
struct DesktopEntryTests {
    @Test("Studio's link handler is the one scripts/install installs (data/hostshell-links.desktop)")
    func studioLinks() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/hostshell-links.desktop")
        #expect(DesktopEntry.studioLinks.text == (try String(contentsOf: file, encoding: .utf8)))
    }

    @Test("values: backslash, newline, tab, return and a leading space are escaped")
    func values() {
        #expect(DesktopEntry.escaped(" a\\b\nc\td\re ") == "\\sa\\\\b\\nc\\td\\re ")
        #expect(DesktopEntry.escaped("Plain ü") == "Plain ü")
    }

    @Test("Exec: an argument with a reserved character is quoted and escaped, % is doubled, the field code is last and bare; it reads back the same",
          arguments: [
            ["/opt/host shell/hostshell", "capacitor", "/p/it's mine", "--app-name", #"Say "hi" $HOME `x` \ 100%"#],
            ["hostshell", "", "tab\there", "new\nline", "a;b|c&d", "~/x", "#1", "(x)", "*?<>", "%u", "plain-arg=1"],
          ])
    func exec(_ arguments: [String]) throws {
        let entry = DesktopEntry(name: "App", exec: arguments, fieldCode: "%u")
        let line = try #require(entry.text.split(separator: "\n").first { $0.hasPrefix("Exec=") })
        #expect(line.hasSuffix(" %u"), "the field code is last and unquoted: \(line)")
        #expect(DesktopEntry.execArguments(String(line.dropFirst(5))) == arguments + ["%u"], "\(line)")
    }

    @Test("Exec: the exact quoting for a path with a space, quotes, dollar, backquote, backslash and percent")
    func execExact() {
        let entry = DesktopEntry(name: "A", exec: ["/a b/hostshell", #"x"y$z`w\v%"#, "ok"], fieldCode: "%u")
        // Quoted: "/a b/hostshell" and "x\"y\$z\`w\\v%%"; then the general escape doubles each backslash.
        #expect(entry.text.contains(#"Exec="/a b/hostshell" "x\\"y\\$z\\`w\\\\v%%" ok %u"#), "\(entry.text)")
        #expect(DesktopEntry.quoted("%u") == "%%u" && DesktopEntry.quoted("") == "\"\"" && DesktopEntry.quoted("a=b") == "a=b")
        #expect(DesktopEntry.execArguments(#""open"#) == nil && DesktopEntry.execArguments("a \\") == nil)
    }

    @Test("a Capacitor app's entry: hidden, one handler per scheme, runs the app again with --open-url %u, marked as HostShell's")
    func capacitorEntry() throws {
        let command = ["/usr/local/bin/hostshell"] + CapacitorDesktopEntry.arguments(
            project: "/src/home sec/ui", webDir: nil, url: nil, appId: "com.levneiman.homesec", appName: nil, schemes: ["homesec", "hs"],
            apnsEnvironment: "sandbox", credentialStore: "auto", device: "phone")
        let entry = CapacitorDesktopEntry.entry(appId: "com.levneiman.homesec", appName: "HomeSec", schemes: ["homesec", "hs"], command: command)
        let text = entry.text
        #expect(text.hasPrefix("[Desktop Entry]\nType=Application\nName=HomeSec\nComment=Open homesec:, hs: links in HomeSec (HostShell)\n"))
        #expect(text.contains("\nMimeType=x-scheme-handler/homesec;x-scheme-handler/hs;\n") && text.contains("\nNoDisplay=true\n"))
        #expect(text.hasSuffix("\nX-HostShell-App=com.levneiman.homesec\n"))
        let exec = try #require(text.split(separator: "\n").first { $0.hasPrefix("Exec=") })
        #expect(DesktopEntry.execArguments(String(exec.dropFirst(5)))
                == ["/usr/local/bin/hostshell", "capacitor", "/src/home sec/ui", "--app-id", "com.levneiman.homesec",
                    "--link-scheme", "homesec", "--link-scheme", "hs", "--open-url", "%u"])
        #expect(CapacitorDesktopEntry.fileName(appId: "com.levneiman.homesec") == "com.levneiman.homesec.desktop")
    }

    @Test("the app's arguments: its source and id always, other choices only when not the default")
    func arguments() {
        #expect(CapacitorDesktopEntry.arguments(project: nil, webDir: "/w/dist", url: nil, appId: "a.b", appName: "My App", schemes: [],
                                                apnsEnvironment: "production", credentialStore: "file", device: "desktop")
                == ["capacitor", "--web-dir", "/w/dist", "--app-id", "a.b", "--app-name", "My App", "--apns-environment", "production",
                    "--credential-store", "file", "--device", "desktop"])
        #expect(CapacitorDesktopEntry.arguments(project: nil, webDir: nil, url: "http://127.0.0.1:5173", appId: "a.b", appName: nil, schemes: ["ab"],
                                                apnsEnvironment: "sandbox", credentialStore: "auto", device: "phone")
                == ["capacitor", "--url", "http://127.0.0.1:5173", "--app-id", "a.b", "--link-scheme", "ab"])
    }

    @Test("written when missing or an older entry of the same app; left when the same, or another program's")
    func decide() {
        let wanted = CapacitorDesktopEntry.entry(appId: "a.b", appName: "A", schemes: ["ab"], command: ["hostshell", "capacitor"]).text
        let older = CapacitorDesktopEntry.entry(appId: "a.b", appName: "Old", schemes: ["ab"], command: ["/old/hostshell", "capacitor"]).text
        let otherApp = CapacitorDesktopEntry.entry(appId: "c.d", appName: "C", schemes: ["ab"], command: ["hostshell"]).text
        #expect(CapacitorDesktopEntry.decide(existing: nil, wanted: wanted, appId: "a.b") == .write)
        #expect(CapacitorDesktopEntry.decide(existing: wanted, wanted: wanted, appId: "a.b") == .unchanged)
        #expect(CapacitorDesktopEntry.decide(existing: older, wanted: wanted, appId: "a.b") == .write)
        #expect(CapacitorDesktopEntry.decide(existing: "[Desktop Entry]\nName=Someone else's\n", wanted: wanted, appId: "a.b") == .foreign)
        #expect(CapacitorDesktopEntry.decide(existing: otherApp, wanted: wanted, appId: "a.b") == .foreign)
    }
}
