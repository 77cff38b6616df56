import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// The HomeSec plugins on the Capacitor seam, driven through `CapacitorBridge` with the glue
/// played by the test: what each plugin asks the host, and how the answers reach the page.
@Suite("HomeSec plugins on the Capacitor seam")
struct HomeSecSeamTests {
    static let app = CapacitorAppInfo(appId: "com.levneiman.homesec", appName: "HomeSec", appVersion: "1.4.0", deviceName: " Lev's laptop ",
                                      apnsEnvironment: "production", pluginConfig: ["PushNotifications": ["presentationOptions": ["alert"]]])

    /// Capacitor's own plugins and HomeSec's, as `hostshell capacitor` registers them.
    static let plugins = CapacitorPlugins.combined(CapacitorPlugins.standard, HomeSecPluginTypes.all)

    static func bridge() -> CapacitorBridge { CapacitorBridge(app: app, plugins: plugins) }

    static func asks(_ effects: [CapacitorBridge.Effect]) -> [HostRequest] {
        effects.compactMap { if case .ask(let request) = $0 { return request } else { return nil } }
    }

    static func results(_ effects: [CapacitorBridge.Effect]) -> [JSONObject] {
        sent(effects).compactMap(\.objectValue)
    }

    @Test("Capacitor's own plugins are App and PushNotifications; HomeSec's are added by the command that runs it, listed by name")
    func standardPlugins() {
        #expect(CapacitorPlugins.standard.map { $0.name } == ["App", "PushNotifications"])
        #expect(CapacitorBridge(app: Self.app).plugin(named: "HomeSecAuth") == nil)
        let twice = CapacitorPlugins.combined(HomeSecPluginTypes.all, CapacitorPlugins.standard, HomeSecPluginTypes.all)
        #expect(twice.map { $0.name } == ["App", "HomeSecAuth", "HomeSecDevice", "PushNotifications"])
    }

    @Test("HomeSec's app plugins' headers: App, HomeSecAuth, HomeSecDevice, PushNotifications, with their methods")
    func headers() {
        let names = Self.bridge().headers.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue }
        #expect(names == ["App", "HomeSecAuth", "HomeSecDevice", "PushNotifications"])
        let auth = Self.bridge().headers.arrayValue?.first { $0.objectValue?["name"] == "HomeSecAuth" }?.objectValue?["methods"]?.arrayValue
        #expect(auth?.contains(["name": "setApiToken", "rtype": "promise"]) == true)
    }

    @Test("HomeSecAuth: one request per call with the method and options; the glue's answer resolves or rejects with HOMESEC_AUTH_STORAGE_ERROR")
    func auth() throws {
        var bridge = Self.bridge()
        #expect(bridge.reduce(.host(.custom(HomeSecAuthPlugin.entriesEvent, ["entries": ["server-base-url"], "store": "secret-service"]))).isEmpty)
        #expect(bridge.plugin(named: "HomeSecAuth")?.state == ["entries": ["server-base-url"], "store": "secret-service"], "known from the start")
        let secrets = MemorySecrets()
        func roundTrip(_ method: String, _ options: JSONObject = [:], id: String) throws -> JSONObject {
            let request = try #require(Self.asks(bridge.reduce(.received(capacitorCall("HomeSecAuth", method, options, id: id)))).first)
            #expect(request.plugin == "HomeSecAuth" && request.action == HomeSecAuthPlugin.action)
            #expect(request.arguments["method"] == .string(method) && request.arguments["options"] == .object(options))
            // The glue: the rules against its store, the entry names and the store's kind.
            var reply = try #require(HomeSecAuth.call(method, options: options, store: secrets)).reply
            reply["entries"] = HomeSecAuth.entryNames(secrets)
            reply["store"] = "file"
            return try #require(Self.results(bridge.reduce(.answered(ticket: request.ticket, .success(.object(reply))))).first)
        }
        let set = try roundTrip("setServerBaseUrl", ["value": "https://home.example/"], id: "1")
        #expect(set["success"] == true && set["data"] == nil, "a bare resolve")
        let get = try roundTrip("getServerBaseUrl", id: "2")
        #expect(get["data"] == ["value": "https://home.example"])
        let rejected = try roundTrip("setApiToken", [:], id: "3")
        #expect(rejected["error"]?.objectValue?["code"] == "HOMESEC_AUTH_STORAGE_ERROR")
        #expect(rejected["error"]?.objectValue?["message"] == "value is required.")
        let state = bridge.plugin(named: "HomeSecAuth")?.state
        #expect(state?["entries"] == ["server-base-url"] && state?["store"] == "file")

        // The glue failing outright is a rejection with the plugin's code too.
        let request = try #require(Self.asks(bridge.reduce(.received(capacitorCall("HomeSecAuth", "getApiToken", id: "4")))).first)
        let failed = Self.results(bridge.reduce(.answered(ticket: request.ticket, .failure(HostFailure("the keyring is locked")))))
        #expect(failed.first?["error"]?.objectValue?["code"] == "HOMESEC_AUTH_STORAGE_ERROR")
        #expect(failed.first?["error"]?.objectValue?["message"] == "the keyring is locked")
    }

    @Test("HomeSecDevice answers from the app's facts without the host; no bundle id is its exact rejection")
    func device() {
        var bridge = Self.bridge()
        let effects = bridge.reduce(.received(capacitorCall("HomeSecDevice", "getRegistrationInfo", id: "5")))
        #expect(Self.asks(effects).isEmpty)
        #expect(Self.results(effects).first?["data"] == ["apnsEnvironment": "production", "appVersion": "1.4.0",
                                                        "bundleId": "com.levneiman.homesec", "deviceName": "Lev's laptop"])
        var bare = CapacitorBridge(app: CapacitorAppInfo(apnsEnvironment: "nonsense"), plugins: Self.plugins)
        let error = Self.results(bare.reduce(.received(capacitorCall("HomeSecDevice", "getRegistrationInfo", id: "6")))).first?["error"]?.objectValue
        #expect(error?["code"] == "HOMESEC_DEVICE_INFO_ERROR" && error?["message"] == "App bundle identifier is unavailable.")
        #expect(bare.plugin(named: "HomeSecDevice")?.state["apnsEnvironment"] == "sandbox")
    }

    /// Answers `request` and returns the bridge's effects.
    static func answer(_ bridge: inout CapacitorBridge, _ request: HostRequest, _ value: JSONObject) -> [CapacitorBridge.Effect] {
        bridge.reduce(.answered(ticket: request.ticket, .success(.object(value))))
    }

    @Test("PushNotifications: loads the profile first, asks the question, waits for ctl permission, makes and records a token, reports it")
    func pushFlow() throws {
        var bridge = Self.bridge()
        _ = bridge.reduce(.received(capacitorCall("PushNotifications", "addListener", ["eventName": "registration"], id: "10")))
        let load = try #require(Self.asks(bridge.reduce(.received(capacitorCall("PushNotifications", "checkPermissions", id: "11")))).first)
        #expect(load.action == "push.load")
        #expect(Self.asks(bridge.reduce(.received(capacitorCall("PushNotifications", "requestPermissions", id: "12")))).isEmpty, "one load for everything waiting")
        #expect(bridge.reduce(.host(.permission(grant: true))) == [.unhandled(.permission(grant: true))],
                "no question open: ctl permission is for the page's WebKit questions")
        let loaded = Self.answer(&bridge, load, ["record": .null, "permission": "prompt"])
        #expect(Self.results(loaded).first?["data"] == ["receive": "prompt"])
        let question = try #require(Self.asks(loaded).first)
        #expect(question.action == "permission.ask" && question.arguments["appName"] == "HomeSec")

        // ctl permission grant is the permission center's (the glue asked there, in turn with
        // WebKit's questions): the plugin does not take it; the glue's answer resolves the call.
        #expect(bridge.reduce(.host(.permission(grant: true))) == [.unhandled(.permission(grant: true))])
        #expect(Self.results(Self.answer(&bridge, question, ["receive": "granted"])).first?["data"] == ["receive": "granted"])
        #expect(Self.answer(&bridge, question, ["receive": "granted"]).isEmpty, "answered once")

        let register = bridge.reduce(.received(capacitorCall("PushNotifications", "register", id: "13")))
        #expect(Self.results(register).first?["success"] == true)
        let make = try #require(Self.asks(register).first)
        #expect(make.action == "token.make")
        let hex = String(repeating: "ab", count: 32)
        let save = try #require(Self.asks(Self.answer(&bridge, make, ["token": .string(hex)])).first)
        #expect(save.action == "record.save")
        #expect(PushRecord(fileText: save.arguments["text"]?.stringValue ?? "") == PushRecord(token: PushToken(hex: hex)!, bundleId: "com.levneiman.homesec", environment: .production))
        let reported = Self.results(Self.answer(&bridge, save, [:]))
        #expect(reported.first?["callbackId"] == "10" && reported.first?["save"] == true && reported.first?["data"] == ["value": .string(hex.uppercased())])
        #expect(bridge.plugin(named: "PushNotifications")?.state["token"] == .string(hex.uppercased()))

        // A record that cannot be written: registrationError with why.
        let rotate = try #require(Self.asks(bridge.reduce(.host(.rotatePushToken))).first)
        let resave = try #require(Self.asks(Self.answer(&bridge, rotate, ["token": .string(String(repeating: "CD", count: 32))])).first)
        #expect(Self.results(bridge.reduce(.answered(ticket: resave.ticket, .failure(HostFailure("disk full"))))).isEmpty, "no registrationError listener: nothing")
    }

    @Test("pushes: in the foreground to pushNotificationReceived; in the background shown on the desktop; a tap retained for the first listener")
    func pushDelivery() throws {
        var bridge = Self.bridge()
        let payload: JSONObject = ["aps": ["alert": ["title": "Motion", "body": "Front door"]], "route": "/events/7?from=notification"]
        // A push before the profile is loaded waits for it.
        let load = try #require(Self.asks(bridge.reduce(.host(PushNotificationsPlugin.delivered(id: "n1", payload: payload)))).first)
        #expect(load.action == "push.load")
        _ = bridge.reduce(.received(capacitorCall("PushNotifications", "addListener", ["eventName": "pushNotificationReceived"], id: "20")))
        let loaded = Self.answer(&bridge, load, ["record": .null, "permission": "granted"])
        let received = Self.results(loaded).first
        #expect(received?["callbackId"] == "20" && received?["data"]?.objectValue?["data"] == .object(payload))
        #expect(Self.asks(loaded).map(\.action) == ["notification.show"], "presentationOptions alert: also a banner")

        // Background (the lifecycle reaches every plugin; App answers it too).
        _ = bridge.reduce(.host(.lifecycle(.background)))
        #expect(bridge.plugin(named: "App")?.state["lifecycle"] == "background", "App still follows it")
        let away = bridge.reduce(.host(PushNotificationsPlugin.delivered(id: "n2", payload: payload)))
        #expect(Self.results(away).isEmpty && Self.asks(away).map(\.action) == ["notification.show"])
        // Blurred but in the foreground still counts as the foreground.
        _ = bridge.reduce(.host(.lifecycle(.foreground)))
        _ = bridge.reduce(.host(.lifecycle(.blur)))
        #expect(Self.results(bridge.reduce(.host(PushNotificationsPlugin.delivered(id: "n3", payload: payload)))).count == 1)

        // A tap with no listener is kept, then handed to the first one.
        #expect(Self.results(bridge.reduce(.host(PushNotificationsPlugin.activated(id: "n2", payload: payload)))).isEmpty)
        #expect(bridge.retained.map(\.event) == ["pushNotificationActionPerformed"])
        let tapped = Self.results(bridge.reduce(.received(capacitorCall("PushNotifications", "addListener", ["eventName": "pushNotificationActionPerformed"], id: "21"))))
        #expect(tapped.first?["data"]?.objectValue?["actionId"] == "tap")
        #expect(tapped.first?["data"]?.objectValue?["notification"]?.objectValue?["data"] == .object(payload))
    }

    @Test("the remembered answer's file: granted or denied; anything else asks again")
    func permissionFile() {
        #expect(PushNotificationsPlugin.permission(fileText: PushNotificationsPlugin.permissionFile(granted: true)) == .granted)
        #expect(PushNotificationsPlugin.permission(fileText: PushNotificationsPlugin.permissionFile(granted: false)) == .denied)
        for text in [nil, "", "{", #"{"receive":"prompt"}"#, #"{"receive":true}"#, "[]"] as [String?] {
            #expect(PushNotificationsPlugin.permission(fileText: text) == .prompt)
        }
    }

    @Test("a lifecycle change nobody takes is unhandled; one App takes reaches every plugin")
    func lifecycleBroadcast() {
        var none = CapacitorBridge(plugins: [])
        #expect(none.reduce(.host(.lifecycle(.blur))) == [.unhandled(.lifecycle(.blur))])
        var bridge = Self.bridge()
        _ = bridge.reduce(.host(.lifecycle(.background)))
        #expect(bridge.plugin(named: "App")?.state["lifecycle"] == "background")
        #expect((bridge.plugin(named: "PushNotifications") as? PushNotificationsPlugin)?.inForeground == false)
    }
}
