import HostCore
import Testing

@Suite("Devices: the catalogue's numbers, --device and --orientation, the fidelity report")
struct DeviceCatalogueTests {
    @Test("every device's numbers hang together: insets inside the screen, landscape is portrait turned, bars within the insets")
    func consistent() {
        for model in DeviceCatalogue.all {
            #expect(model.size(.landscape) == model.portraitSize.swapped, "\(model.id)")
            #expect(model.portraitSize.width < model.portraitSize.height, "\(model.id) is taller than wide in portrait")
            #expect([2, 3].contains(model.scale), "\(model.id)")
            #expect(model.pixelSize(.portrait).width == model.portraitSize.width * model.scale)
            for orientation in DeviceOrientation.allCases {
                let size = model.size(orientation), metrics = model.metrics(orientation), insets = metrics.safeArea
                #expect(insets.top + insets.bottom < size.height / 2 && insets.left + insets.right < size.width / 2, "\(model.id) \(orientation)")
                #expect(metrics.statusBar <= insets.top, "\(model.id) \(orientation): the status bar is inside the top inset")
                #expect(metrics.homeIndicator == insets.bottom, "\(model.id) \(orientation): the home indicator is the bottom inset")
                #expect(!model.homeButton || metrics.homeIndicator == 0, "\(model.id): a home button, no home indicator")
            }
            if model.profile == .phone { #expect(model.landscape.statusBar == 0, "\(model.id): iPhones hide the status bar in landscape") }
            if model.profile == .tablet { #expect(model.landscape.statusBar == 24 && model.scale == 2) }
        }
    }

    @Test("the figures the sources give")
    func figures() throws {
        let sixteen = try #require(DeviceCatalogue.model(named: "iphone-16"))
        #expect(sixteen.portraitSize == PointSize(393, 852) && sixteen.scale == 3)
        #expect(sixteen.portrait.safeArea == EdgeInsets(top: 59, bottom: 34))
        #expect(sixteen.landscape.safeArea == EdgeInsets(left: 59, bottom: 21, right: 59))
        let se = try #require(DeviceCatalogue.model(named: "iphone-se"))
        #expect(se.portraitSize == PointSize(375, 667) && se.scale == 2 && se.portrait.statusBar == 20 && se.portrait.homeIndicator == 0)
        #expect(se.landscape.statusBar == 0)
        #expect(DeviceCatalogue.model(named: "iphone-16-pro")?.portrait.safeArea.top == 62)
        #expect(DeviceCatalogue.model(named: "iphone-16-pro-max")?.portraitSize == PointSize(440, 956))
        #expect(DeviceCatalogue.model(named: "ipad-mini")?.portraitSize == PointSize(744, 1133))
        #expect(DeviceCatalogue.model(named: "ipad-air")?.portraitSize == PointSize(820, 1180))
        #expect(DeviceCatalogue.model(named: "ipad-pro-13")?.portraitSize == PointSize(1032, 1376))
    }

    @Test("names are unique, and every alias and Apple name resolves")
    func names() {
        let ids = DeviceCatalogue.all.map(\.id)
        #expect(Set(ids).count == ids.count && Set(DeviceCatalogue.all.map(\.name)).count == ids.count)
        #expect(DeviceCatalogue.all.count == 7)
        for model in DeviceCatalogue.all {
            #expect(DeviceCatalogue.model(named: model.id) == model)
            #expect(DeviceCatalogue.model(named: model.name) == model, "\(model.name)")
            #expect(DeviceCatalogue.model(named: model.id.uppercased()) == model)
        }
        for (word, id) in [("iPhone 16 Pro", "iphone-16-pro"), ("IPHONE SE", "iphone-se"), ("iPad mini", "ipad-mini"), ("iPad Air", "ipad-air"),
                           ("iPad Pro 13-inch", "ipad-pro-13"), ("phone", "iphone-16"), ("tablet", "ipad-air"), ("iphone_16_pro_max", "iphone-16-pro-max")] {
            #expect(DeviceCatalogue.model(named: word)?.id == id, "\(word)")
        }
        for alias in DeviceCatalogue.aliases.values { #expect(ids.contains(alias)) }
    }

    @Test("--device and --orientation: desktop is no device; an unknown name lists the known ones")
    func parsing() throws {
        let desktop = try DeviceChoice.parse("Desktop").get()
        #expect(desktop.model == nil && desktop.profile == .desktop && desktop.size == PointSize(1280, 800) && desktop.headlessScreen == nil)
        #expect(desktop.rotated() == nil)
        let phone = try DeviceChoice.parse("phone").get()
        #expect(phone.profile == .phone && phone.model?.id == "iphone-16" && phone.profile.usesTabs)
        let turned = try DeviceChoice.parse("iPhone 16 Pro", orientation: "Landscape").get()
        #expect(turned.orientation == .landscape && turned.size == PointSize(874, 402) && turned.headlessScreen == PointSize(2622, 1206))
        #expect(turned.metrics.statusBar == 0 && turned.pageHeight == 402 - 21)
        #expect(turned.rotated()?.orientation == .portrait && turned.rotated(to: .landscape)?.orientation == .landscape)
        #expect(try DeviceChoice.parse("ipad-air").get().pageHeight == 1180 - 24 - 20)
        guard case .failure(let error) = DeviceChoice.parse("iphone-17") else { Issue.record("accepted an unknown device"); return }
        for name in DeviceCatalogue.names { #expect(error.message.contains(name)) }
        guard case .failure(let sideways) = DeviceChoice.parse("phone", orientation: "sideways") else { Issue.record("accepted sideways"); return }
        #expect(sideways.message.contains("portrait or landscape"))
        guard case .failure = desktop.checked(orientationGiven: true) else { Issue.record("a desktop turned"); return }
        #expect((try? phone.checked(orientationGiven: true).get()) == phone)
    }

    @Test("the existing profiles keep their idiom, size class and user agent")
    func profiles() {
        #expect(DeviceChoice.phone.profile.sizeClass == .compact && DeviceChoice.tablet.profile.sizeClass == .regular)
        #expect(DeviceChoice.phone.model?.userAgent.contains("iPhone") == true && DeviceChoice.tablet.model?.userAgent.contains("iPad") == true)
        for model in DeviceCatalogue.all { #expect(SizeClass.of(width: model.portraitSize.width) == model.profile.sizeClass, "\(model.id)") }
    }

    @Test("status-bar overrides: words, checks and clear")
    func statusBar() throws {
        let line = try ControlRequest.line(fromArguments: ["status-bar", "--time", "9:41", "--battery", "100", "--charging", "--cellular", "4", "--wifi", "3", "--carrier", "HostShell"])
        guard case .statusBar(let override?) = try ControlRequest.decode(line).get().command else { Issue.record("not an override"); return }
        #expect(override == StatusBarOverride(time: "9:41", battery: 100, charging: true, cellular: 4, wifi: 3, carrier: "HostShell"))
        #expect(override.applied(to: .live(hour: 7, minute: 5)).time == "9:41")
        #expect(StatusBarValues.live(hour: 7, minute: 5).time == "7:05")
        #expect(StatusBarOverride(battery: 5).merged(StatusBarOverride(time: "10:00")) == StatusBarOverride(time: "10:00", battery: 5))
        let clear = try ControlRequest.line(fromArguments: ["status-bar", "clear"])
        #expect(try ControlRequest.decode(clear).get().command == .statusBar(nil))
        #expect(StatusBarOverride.time("09:41") == "9:41" && StatusBarOverride.time("23:59") == "23:59")
        for bad in ["24:00", "9:60", "941", "9:4", "a:bc", "", "9:41:00", "١٢:٠٠"] { #expect(StatusBarOverride.time(bad) == nil, "\(bad)") }
        for words in [["--battery", "101"], ["--cellular", "5"], ["--wifi", "4"], ["--battery", "half"], ["--time", "25:00"], ["--wifi", "-1"]] {
            let line = try ControlRequest.line(fromArguments: ["status-bar"] + words)
            guard case .failure(let failure) = ControlRequest.decode(line) else { Issue.record("accepted \(words)"); continue }
            #expect(failure.error.message.contains(words[0].dropFirst(2)), "\(failure.error.message)")
        }
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["status-bar"]) }
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["status-bar", "--volume", "3"]) }
        guard case .failure = ControlRequest.decode(#"{"command":"status-bar","battery":50,"volume":3}"#) else { Issue.record("accepted volume"); return }
    }

    @Test("rotate: to a side, or the other way")
    func rotate() throws {
        #expect(try ControlRequest.decode(try ControlRequest.line(fromArguments: ["rotate"])).get().command == .rotate(nil))
        #expect(try ControlRequest.decode(try ControlRequest.line(fromArguments: ["rotate", "landscape"])).get().command == .rotate(.landscape))
        guard case .failure = ControlRequest.decode(#"{"command":"rotate","orientation":"upside-down"}"#) else { Issue.record("accepted upside-down"); return }
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["rotate", "portrait", "now"]) }
        #expect(ControlCommand.names.contains("rotate") && ControlCommand.names.contains("status-bar"))
    }

    @Test("fidelity: HostShell's own Xvfb gives scale and screen; insets and pointer are listed with why; measured values win")
    func fidelity() throws {
        let choice = try DeviceChoice.parse("iphone-16-pro").get()
        let own = DeviceFidelity.expected(choice, ownDisplay: true, startedIn: .portrait)
        #expect(own.map(\.property) == DeviceFidelity.properties)
        let byName = Dictionary(uniqueKeysWithValues: own.map { ($0.property, $0) })
        #expect(byName["devicePixelRatio"]?.here == .number(3) && byName["devicePixelRatio"]?.phone == .number(3))
        #expect(byName["screen"]?.here == byName["screen"]?.phone)
        #expect(byName["safeAreaInsets"]?.phone == EdgeInsets(top: 62, bottom: 34).json && byName["safeAreaInsets"]?.here == EdgeInsets().json)
        #expect(byName["viewport"]?.here == PointSize(402, 874 - 62 - 34).json)
        let theirs = DeviceFidelity.expected(choice, ownDisplay: false, startedIn: .portrait)
        #expect(theirs.first { $0.property == "devicePixelRatio" }.map { $0.here == nil } == true, "a person's display: measured")
        let turned = DeviceFidelity.expected(choice.rotated()!, ownDisplay: true, startedIn: .portrait)
        #expect(turned.first { $0.property == "screen" }.map { $0.here == nil } == true, "the screen does not turn")
        #expect(DeviceFidelity.expected(.desktop, ownDisplay: true, startedIn: .portrait).isEmpty)
        let report = DeviceFidelity.report(own, measured: ["devicePixelRatio": 1, "touchEvents": false]).arrayValue ?? []
        let ratio = try #require(report.first { $0.objectValue?["property"] == "devicePixelRatio" }?.objectValue)
        #expect(ratio["here"] == .number(1) && ratio["matches"] == false && ratio["measured"] == true && ratio["why"] != nil)
        let screen = try #require(report.first { $0.objectValue?["property"] == "screen" }?.objectValue)
        #expect(screen["matches"] == true && screen["why"] == nil && screen["measured"] == false)
        let touch = DeviceFidelity.report(own, measured: nil).arrayValue?.first { $0.objectValue?["property"] == "maxTouchPoints" }?.objectValue
        #expect(touch?["here"] == .string(DeviceFidelity.measuredAtRunTime) && touch?["matches"] == .null)
    }
}
