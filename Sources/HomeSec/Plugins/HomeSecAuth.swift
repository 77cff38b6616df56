import HostCore

/// A platform secret store as HomeSecAuth sees it: entries by account name, for one app only.
/// The glue has two (the Secret Service, an owner-only file); tests use a dictionary.
public protocol HomeSecSecrets {
    func read(_ account: String) throws(SecretStoreFailure) -> String?
    func write(_ account: String, _ value: String) throws(SecretStoreFailure)
    /// Deleting what is not there is no failure.
    func delete(_ account: String) throws(SecretStoreFailure)
    /// The names of the app's entries, for `ctl state` (never their values).
    func accounts() throws(SecretStoreFailure) -> [String]
}

/// HomeSec's own `HomeSecAuth` plugin (capacitor-shell CONTRACT §4): the server address, the
/// API token and the "auth is off and setup is done" mark, kept in the secret store under
/// service `homesec` and keyed per normalised server address, with its exact answers.
public enum HomeSecAuth {
    public static let pluginName = "HomeSecAuth"
    public static let service = "homesec"
    /// Every rejection's code.
    public static let errorCode = "HOMESEC_AUTH_STORAGE_ERROR"
    public static let methods = ["getServerBaseUrl", "setServerBaseUrl", "clearServerBaseUrl",
                                 "getApiToken", "setApiToken", "clearApiToken",
                                 "getAuthDisabledReady", "setAuthDisabledReady", "clearAuthDisabledReady"]

    /// The methods whose `value` (the call's option or the answer's data) is the API token:
    /// never written to a log or the event stream.
    public static let secretValueMethods: Set<String> = ["getApiToken", "setApiToken"]

    public static let serverBaseUrlAccount = "server-base-url"
    public static let tokenPrefix = "api-token:"
    public static let readyPrefix = "auth-disabled-ready:"

    /// What a call comes to: resolved with data (nil: resolved with nothing), or rejected with
    /// `errorCode` and a message.
    public enum Answer: Sendable, Equatable {
        case resolve(JSONValue?)
        case reject(String)
    }

    /// The rejections' words.
    public enum Failure: Error, Sendable, Equatable {
        case missingValue(String)
        case invalidServerURL(String)
        case serverURLRequired
        case storage(String)

        public var message: String {
            switch self {
            case .missingValue(let field): "\(field) is required."
            case .invalidServerURL(let input): "Invalid HomeSec server URL: \(input)"
            case .serverURLRequired: "Set the HomeSec server URL before storing an API token."
            case .storage(let why): why
            }
        }
    }

    /// Carries out `method` with `options` on `store`. A method that is not HomeSecAuth's is
    /// nil (the runtime answers UNIMPLEMENTED).
    public static func call(_ method: String, options: JSONObject, store: some HomeSecSecrets) -> Answer? {
        guard methods.contains(method) else { return nil }
        do throws(Failure) {
            return .resolve(try perform(method, options: options, store: Store(secrets: store)))
        } catch {
            return .reject(error.message)
        }
    }

    private static func perform(_ method: String, options: JSONObject, store: Store<some HomeSecSecrets>) throws(Failure) -> JSONValue? {
        switch method {
        case "getServerBaseUrl":
            return ["value": try store.read(serverBaseUrlAccount).map(JSONValue.string) ?? .null]
        case "setServerBaseUrl":
            let value = try required("value", options)
            guard let normalized = HomeSecServerURL.normalize(value) else { throw .invalidServerURL(value) }
            if let previous = try store.currentServerURL(), previous != normalized {
                try store.delete(tokenPrefix + previous)
                try store.delete(readyPrefix + previous)
            }
            try store.write(serverBaseUrlAccount, normalized)
            return nil
        case "clearServerBaseUrl":
            if let current = try store.currentServerURL() {
                try store.delete(tokenPrefix + current)
                try store.delete(readyPrefix + current)
            }
            try store.delete(serverBaseUrlAccount)
            return nil
        case "getApiToken":
            guard let current = try store.currentServerURL() else { return ["value": .null] }
            return ["value": try store.read(tokenPrefix + current).map(JSONValue.string) ?? .null]
        case "setApiToken":
            let value = try required("value", options)
            guard let current = try store.currentServerURL() else { throw .serverURLRequired }
            try store.write(tokenPrefix + current, value)
            return nil
        case "clearApiToken":
            if let current = try store.currentServerURL() { try store.delete(tokenPrefix + current) }
            return nil
        case "getAuthDisabledReady":
            guard let current = try store.currentServerURL() else { return ["value": false] }
            return ["value": .bool(try store.read(readyPrefix + current) == "true")]
        case "setAuthDisabledReady":
            let ready = options["value"]?.boolValue ?? false
            guard let current = try store.currentServerURL() else { throw .serverURLRequired }
            if ready { try store.write(readyPrefix + current, "true") } else { try store.delete(readyPrefix + current) }
            return nil
        default:  // clearAuthDisabledReady
            if let current = try store.currentServerURL() { try store.delete(readyPrefix + current) }
            return nil
        }
    }

    /// A string option that is present and not only whitespace, as written.
    private static func required(_ key: String, _ options: JSONObject) throws(Failure) -> String {
        guard let value = options[key]?.stringValue, !HomeSecServerURL.trim(value).isEmpty else { throw .missingValue(key) }
        return value
    }

    /// The store with its failures worded, and the stored address normalised on every read.
    private struct Store<Secrets: HomeSecSecrets> {
        let secrets: Secrets

        func read(_ account: String) throws(Failure) -> String? {
            do { return try secrets.read(account) } catch { throw .storage(error.message) }
        }
        func write(_ account: String, _ value: String) throws(Failure) {
            do { try secrets.write(account, value) } catch { throw .storage(error.message) }
        }
        func delete(_ account: String) throws(Failure) {
            do { try secrets.delete(account) } catch { throw .storage(error.message) }
        }
        /// The stored address, normalised; a stored value that is no address is rejected with
        /// its own words, as a bad address given to `setServerBaseUrl` would be.
        func currentServerURL() throws(Failure) -> String? {
            guard let stored = try read(serverBaseUrlAccount) else { return nil }
            guard let normalized = HomeSecServerURL.normalize(stored) else { throw .invalidServerURL(stored) }
            return normalized
        }
    }

    /// `ctl state`'s entry names: the accounts the store holds for the app, sorted, or what
    /// went wrong reading them. Never a value.
    public static func entryNames(_ store: some HomeSecSecrets) -> JSONValue {
        do {
            return .array(try store.accounts().sorted().map(JSONValue.string))
        } catch {
            return ["error": .string(error.message)]
        }
    }
}
