import HostCore

/// What a shell reads from a Capacitor project's `capacitor.config.json` (contract §3): the app's
/// identity, where its bundle is, how it is served, and the plugins' configuration. Pure: the
/// command reads the file and hands its text here.
public struct CapacitorConfig: Sendable, Equatable {
    public struct Server: Sendable, Equatable {
        /// `server.url`: a live dev server to load instead of the bundle.
        public var url: String?
        /// `server.hostname` (`localhost`).
        public var hostname: String = "localhost"
        /// `server.iosScheme` (`capacitor`).
        public var iosScheme: String = "capacitor"
        /// `server.allowNavigation`: hosts the main frame may go to (kept for the record).
        public var allowNavigation: [String] = []
        public var cleartext: Bool = false
        public init() {}
    }

    public var appId: String?
    public var appName: String?
    /// `webDir` as written (relative to the project directory unless absolute).
    public var webDir: String?
    public var server = Server()
    /// `plugins`, by plugin name.
    public var plugins: JSONObject = [:]

    public init(appId: String? = nil, appName: String? = nil, webDir: String? = nil) {
        self.appId = appId; self.appName = appName; self.webDir = webDir
    }

    /// The app's origin when its bundle is served by the shell: `capacitor://localhost`.
    public var appOrigin: String { server.iosScheme + "://" + server.hostname }

    /// Schemes WebKit keeps for itself or that would make the app a web page: not an app scheme.
    public static let reservedSchemes: Set<String> = ["http", "https", "file", "ftp", "data", "blob", "about", "javascript", "ws", "wss"]

    /// The longest configuration file read.
    public static let maxBytes = 1 << 20

    /// Reads a configuration's JSON text; the error says which key is wrong and how.
    public static func decode(_ text: String) -> Result<CapacitorConfig, CapacitorConfigError> {
        let value: JSONValue
        do { value = try JSONParser.parse(text, maxDepth: 64) } catch {
            return .failure(CapacitorConfigError("it is not JSON (\(error))"))
        }
        guard let object = value.objectValue else {
            return .failure(CapacitorConfigError("it is \(value.kindDescription), not a JSON object"))
        }
        do throws(CapacitorConfigError) { return .success(try read(object)) } catch { return .failure(error) }
    }

    private static func read(_ object: JSONObject) throws(CapacitorConfigError) -> CapacitorConfig {
        func text(_ value: JSONValue?, _ key: String) throws(CapacitorConfigError) -> String? {
            switch value {
            case nil, .null?: return nil
            case .string(let s)?:
                guard !s.trimmingSpaces().isEmpty else { throw CapacitorConfigError("\"\(key)\" is empty") }
                return s
            case let other?: throw CapacitorConfigError("\"\(key)\" must be a string, not \(other.kindDescription)")
            }
        }
        var config = CapacitorConfig()
        config.appId = try text(object["appId"], "appId")
        config.appName = try text(object["appName"], "appName")
        config.webDir = try text(object["webDir"], "webDir")
        if let appId = config.appId { try CapacitorAppId.check(appId) }
        switch object["plugins"] {
        case nil, .null?: break
        case .object(let plugins)?: config.plugins = plugins
        case let other?: throw CapacitorConfigError("\"plugins\" must be an object, not \(other.kindDescription)")
        }
        switch object["server"] {
        case nil, .null?: break
        case .object(let server)?:
            if let url = try text(server["url"], "server.url") {
                guard CapacitorConfig.isWebURL(url) else {
                    throw CapacitorConfigError("\"server.url\" must be an http:// or https:// address with a host, not \"\(url)\"")
                }
                config.server.url = url
            }
            if let host = try text(server["hostname"], "server.hostname") {
                guard host.utf8.count <= 253, host.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".") }) else {
                    throw CapacitorConfigError("\"server.hostname\" must be a host name (letters, digits, - and .), not \"\(host)\"")
                }
                config.server.hostname = host.asciiLowercased()
            }
            if let scheme = try text(server["iosScheme"], "server.iosScheme") {
                guard CapacitorURL.scheme(of: scheme + ":") == scheme.asciiLowercased(), !reservedSchemes.contains(scheme.asciiLowercased()) else {
                    throw CapacitorConfigError("\"server.iosScheme\" must be a URL scheme of the app's own (not http, https or file), not \"\(scheme)\"")
                }
                config.server.iosScheme = scheme.asciiLowercased()
            }
            switch server["allowNavigation"] {
            case nil, .null?: break
            case .array(let items)?:
                config.server.allowNavigation = try items.map { (item) throws(CapacitorConfigError) -> String in
                    guard let s = item.stringValue else { throw CapacitorConfigError("\"server.allowNavigation\" must list strings") }
                    return s
                }
            case let other?: throw CapacitorConfigError("\"server.allowNavigation\" must be an array of host names, not \(other.kindDescription)")
            }
            switch server["cleartext"] {
            case nil, .null?: break
            case .bool(let b)?: config.server.cleartext = b
            case let other?: throw CapacitorConfigError("\"server.cleartext\" must be true or false, not \(other.kindDescription)")
            }
        case let other?: throw CapacitorConfigError("\"server\" must be an object, not \(other.kindDescription)")
        }
        return config
    }

    /// An absolute http(s) URL with a host.
    public static func isWebURL(_ text: String) -> Bool {
        guard let origin = Origin(url: text.trimmingSpaces()) else { return false }
        return !origin.host.isEmpty
    }
}

/// A configuration that cannot be used, and why.
public struct CapacitorConfigError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// App ids (bundle ids), which also name the app's profile directory.
public enum CapacitorAppId {
    /// The longest app id accepted.
    public static let maxLength = 255

    /// A reverse-domain id: letters, digits, `-`, `_` and `.`, not starting with `.`, no `..`.
    public static func check(_ id: String) throws(CapacitorConfigError) {
        let allowed = id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
        guard !id.isEmpty, id.utf8.count <= maxLength, allowed, !id.hasPrefix("."), !id.contains("..") else {
            throw CapacitorConfigError("the app id \"\(id)\" is not a bundle id: use letters, digits, -, _ and . (e.g. com.example.app)")
        }
    }

    /// The id for an app given only a web directory or URL: `local.<name>` from its last path
    /// segment or host, in the characters an app id allows.
    public static func derived(from name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) { out.unicodeScalars.append(scalar) }
            else if !out.hasSuffix("-") && !out.isEmpty { out += "-" }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return "local." + (out.isEmpty ? "app" : String(out.prefix(64)).asciiLowercased())
    }
}
