import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// A secret store in memory, with a failure to inject per operation.
final class MemorySecrets: HomeSecSecrets {
    var entries: [String: String] = [:]
    var failing: String?  // "read", "write" or "delete"
    var log: [String] = []

    func read(_ account: String) throws(SecretStoreFailure) -> String? {
        if failing == "read" { throw SecretStoreFailure("reading \(account) failed: locked") }
        return entries[account]
    }
    func write(_ account: String, _ value: String) throws(SecretStoreFailure) {
        if failing == "write" { throw SecretStoreFailure("writing \(account) failed: locked") }
        log.append("write \(account)")
        entries[account] = value
    }
    func delete(_ account: String) throws(SecretStoreFailure) {
        if failing == "delete" { throw SecretStoreFailure("deleting \(account) failed: locked") }
        log.append("delete \(account)")
        entries[account] = nil
    }
    func accounts() throws(SecretStoreFailure) -> [String] {
        if failing == "read" { throw SecretStoreFailure("listing failed: locked") }
        return Array(entries.keys)
    }
}

@Suite("HomeSec's server address: normalised as its shell does")
struct HomeSecServerURLTests {
    @Test("kept, trimmed, scheme lower-cased, trailing slashes, query and fragment dropped", arguments: [
        ("http://192.168.1.10:8000", "http://192.168.1.10:8000"),
        ("  HTTPS://Home.Example.com/  ", "https://Home.Example.com"),
        ("HtTp://host/", "http://host"),
        ("http://host///", "http://host"),
        ("https://host/homesec/", "https://host/homesec"),
        ("https://host/a//b//", "https://host/a//b"),
        ("https://host/Path?x=1#frag", "https://host/Path"),
        ("https://host?x=1", "https://host"),
        ("https://host#top", "https://host"),
        ("\n\thttp://user:pw@host:8080/x/\n", "http://user:pw@host:8080/x"),
        ("http://[::1]:8000/", "http://[::1]:8000"),
        ("http://host:/", "http://host:"),
        ("http://h%41st/p%2Fq/", "http://h%41st/p%2Fq"),
    ])
    func normalises(input: String, expected: String) {
        #expect(HomeSecServerURL.normalize(input) == expected)
    }

    @Test("refused: not http(s), no host, bad characters or escapes, a bad port", arguments: [
        "", "   ", "host", "ftp://host", "file:///etc/passwd", "http:host", "http:/host", "http://", "http:///path",
        "http://ho st", "http://host/a b", "http://hôst", "http://host/%zz", "http://host/%4", "http://host:80a",
        "http://[::1", "http://[]", "http://ho]st", "javascript:alert(1)", "http://user@", "http://host\u{0}/",
        "//host/path", "https://host/\u{202E}x",
    ])
    func refuses(input: String) {
        #expect(HomeSecServerURL.normalize(input) == nil)
    }
}

@Suite("HomeSecAuth: storage rules and every answer, per normalised address")
struct HomeSecAuthTests {
    typealias A = HomeSecAuth

    func call(_ method: String, _ options: JSONObject, _ store: MemorySecrets) -> A.Answer? {
        A.call(method, options: options, store: store)
    }
    func call(_ method: String, _ store: MemorySecrets) -> A.Answer? {
        A.call(method, options: [:], store: store)
    }

    @Test("empty store: no address, no token, not ready")
    func empty() {
        let store = MemorySecrets()
        #expect(call("getServerBaseUrl", store) == .resolve(["value": .null]))
        #expect(call("getApiToken", store) == .resolve(["value": .null]))
        #expect(call("getAuthDisabledReady", store) == .resolve(["value": false]))
        #expect(call("clearApiToken", store) == .resolve(nil))
        #expect(call("clearAuthDisabledReady", store) == .resolve(nil))
        #expect(call("clearServerBaseUrl", store) == .resolve(nil))
        #expect(call("frobnicate", store) == nil)
        #expect(store.entries.isEmpty)
    }

    @Test("the address is stored normalised; token and readiness are kept under it")
    func setAndGet() {
        let store = MemorySecrets()
        #expect(call("setServerBaseUrl", ["value": " HTTP://Host:8000/ "], store) == .resolve(nil))
        #expect(store.entries == ["server-base-url": "http://Host:8000"])
        #expect(call("getServerBaseUrl", store) == .resolve(["value": "http://Host:8000"]))
        #expect(call("setApiToken", ["value": " tok en "], store) == .resolve(nil))
        #expect(store.entries["api-token:http://Host:8000"] == " tok en ", "the token is kept as given")
        #expect(call("getApiToken", store) == .resolve(["value": " tok en "]))
        #expect(call("setAuthDisabledReady", ["value": true], store) == .resolve(nil))
        #expect(store.entries["auth-disabled-ready:http://Host:8000"] == "true")
        #expect(call("getAuthDisabledReady", store) == .resolve(["value": true]))
        #expect(A.entryNames(store) == ["api-token:http://Host:8000", "auth-disabled-ready:http://Host:8000", "server-base-url"])
    }

    @Test("setAuthDisabledReady false (or not a boolean) deletes the entry")
    func readyFalse() {
        let store = MemorySecrets()
        _ = call("setServerBaseUrl", ["value": "http://h"], store)
        for value: JSONValue? in [false, "true", 1, nil] {
            _ = call("setAuthDisabledReady", ["value": true], store)
            var options = JSONObject()
            options["value"] = value
            #expect(call("setAuthDisabledReady", options, store) == .resolve(nil))
            #expect(store.entries["auth-disabled-ready:http://h"] == nil)
            #expect(call("getAuthDisabledReady", store) == .resolve(["value": false]))
        }
        store.entries["auth-disabled-ready:http://h"] = "yes"
        #expect(call("getAuthDisabledReady", store) == .resolve(["value": false]), "only \"true\" is ready")
    }

    @Test("a different address drops the old one's token and readiness; the same one keeps them")
    func changedAddress() {
        let store = MemorySecrets()
        _ = call("setServerBaseUrl", ["value": "http://a.local"], store)
        _ = call("setApiToken", ["value": "T"], store)
        _ = call("setAuthDisabledReady", ["value": true], store)
        #expect(call("setServerBaseUrl", ["value": "HTTP://a.local/?again"], store) == .resolve(nil))
        #expect(store.entries["api-token:http://a.local"] == "T", "the same address after normalisation keeps its token")
        #expect(call("setServerBaseUrl", ["value": "http://b.local"], store) == .resolve(nil))
        #expect(store.entries == ["server-base-url": "http://b.local"])
        #expect(call("getApiToken", store) == .resolve(["value": .null]))
        #expect(call("getAuthDisabledReady", store) == .resolve(["value": false]))
    }

    @Test("clearing the address clears its token and readiness; other addresses' entries stay")
    func clearAddress() {
        let store = MemorySecrets()
        store.entries["api-token:http://other"] = "keep"
        _ = call("setServerBaseUrl", ["value": "http://a"], store)
        _ = call("setApiToken", ["value": "T"], store)
        _ = call("setAuthDisabledReady", ["value": true], store)
        #expect(call("clearServerBaseUrl", store) == .resolve(nil))
        #expect(store.entries == ["api-token:http://other": "keep"])
        #expect(call("clearApiToken", store) == .resolve(nil))
        #expect(store.entries == ["api-token:http://other": "keep"])
    }

    @Test("clearApiToken and clearAuthDisabledReady delete only their own entry")
    func clearOne() {
        let store = MemorySecrets()
        _ = call("setServerBaseUrl", ["value": "http://a"], store)
        _ = call("setApiToken", ["value": "T"], store)
        _ = call("setAuthDisabledReady", ["value": true], store)
        #expect(call("clearApiToken", store) == .resolve(nil))
        #expect(store.entries == ["server-base-url": "http://a", "auth-disabled-ready:http://a": "true"])
        #expect(call("clearAuthDisabledReady", store) == .resolve(nil))
        #expect(store.entries == ["server-base-url": "http://a"])
    }

    @Test("every rejection's words, all with HOMESEC_AUTH_STORAGE_ERROR")
    func rejections() {
        let store = MemorySecrets()
        #expect(A.errorCode == "HOMESEC_AUTH_STORAGE_ERROR")
        for value: JSONValue? in [nil, "", "  \n", 42, .null, ["x"]] {
            var options = JSONObject()
            options["value"] = value
            #expect(call("setServerBaseUrl", options, store) == .reject("value is required."))
            #expect(call("setApiToken", options, store) == .reject("value is required."))
        }
        #expect(call("setServerBaseUrl", ["value": " ftp://host "], store) == .reject("Invalid HomeSec server URL:  ftp://host "))
        #expect(call("setServerBaseUrl", ["value": "homesec.local"], store) == .reject("Invalid HomeSec server URL: homesec.local"))
        #expect(call("setApiToken", ["value": "T"], store) == .reject("Set the HomeSec server URL before storing an API token."))
        #expect(call("setAuthDisabledReady", ["value": true], store) == .reject("Set the HomeSec server URL before storing an API token."))
        #expect(call("setAuthDisabledReady", [:], store) == .reject("Set the HomeSec server URL before storing an API token."))
        #expect(store.entries.isEmpty)
        // A stored address that is no address: reads that need it say so with its words.
        store.entries["server-base-url"] = "not a url"
        #expect(call("getServerBaseUrl", store) == .resolve(["value": "not a url"]))
        #expect(call("getApiToken", store) == .reject("Invalid HomeSec server URL: not a url"))
        #expect(call("setServerBaseUrl", ["value": "http://a"], store) == .reject("Invalid HomeSec server URL: not a url"))
    }

    @Test("a store that fails: its reason is the rejection, and nothing half-done is reported as done")
    func storageFailures() {
        let store = MemorySecrets()
        _ = call("setServerBaseUrl", ["value": "http://a"], store)
        store.failing = "read"
        #expect(call("getServerBaseUrl", store) == .reject("reading server-base-url failed: locked"))
        #expect(call("getApiToken", store) == .reject("reading server-base-url failed: locked"))
        #expect(A.entryNames(store) == ["error": "listing failed: locked"])
        store.failing = "write"
        #expect(call("setApiToken", ["value": "T"], store) == .reject("writing api-token:http://a failed: locked"))
        store.failing = "delete"
        #expect(call("clearServerBaseUrl", store) == .reject("deleting api-token:http://a failed: locked"))
        #expect(store.entries["server-base-url"] == "http://a", "the address stays when its token could not be deleted")
    }
}

@Suite("HomeSecDevice: registration facts")
struct HomeSecDeviceTests {
    @Test("bundle id, version, device name, environment; blanks are null")
    func info() {
        let device = HomeSecDevice(bundleId: "com.levneiman.homesec", appVersion: " 1.4.0 ", deviceName: "kitchen-pc\n", environment: .sandbox)
        #expect(device.call("getRegistrationInfo") == .resolve(["apnsEnvironment": "sandbox", "appVersion": "1.4.0",
                                                               "bundleId": "com.levneiman.homesec", "deviceName": "kitchen-pc"]))
        let bare = HomeSecDevice(bundleId: "a.b", appVersion: nil, deviceName: "  ", environment: .production)
        #expect(bare.call("getRegistrationInfo") == .resolve(["apnsEnvironment": "production", "appVersion": .null,
                                                             "bundleId": "a.b", "deviceName": .null]))
        #expect(bare.call("other") == nil)
    }

    @Test("no bundle id: rejected with the phone app's words")
    func noBundle() {
        for id: String? in [nil, "", "   "] {
            let device = HomeSecDevice(bundleId: id, appVersion: "1", deviceName: "d", environment: .sandbox)
            #expect(device.call("getRegistrationInfo") == .reject("App bundle identifier is unavailable."))
        }
        #expect(HomeSecDevice.errorCode == "HOMESEC_DEVICE_INFO_ERROR")
    }

    @Test("--apns-environment: sandbox (or development) and production, any case; nothing else")
    func environmentFlag() {
        #expect(APNsEnvironment(flag: "sandbox") == .sandbox)
        #expect(APNsEnvironment(flag: "Development") == .sandbox)
        #expect(APNsEnvironment(flag: "PRODUCTION") == .production)
        #expect(APNsEnvironment(flag: "prod") == nil)
        #expect(APNsEnvironment(flag: "") == nil)
    }
}
