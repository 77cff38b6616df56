import Glibc
import HomeSec
import HostCore
import Push
import PushShell

/// `serve --homesec`'s notifier settings: `--apns-…` flags, else HomeSec's own environment
/// variables (`HOMESEC_APNS_KEY_ID`, `HOMESEC_APNS_TEAM_ID`, `HOMESEC_APNS_PRIVATE_KEY` — the PEM
/// text, `\n` written as two characters allowed — and `HOMESEC_APNS_BUNDLE_ID`,
/// `HOMESEC_APNS_ENVIRONMENT`, `HOMESEC_APNS_BASE_URL`). The notifier is on when a bundle id is given.
package struct HomeSecAPNsOptions {
    var baseURL: String?
    var environment: String?
    var bundleID: String?
    var keyID: String?
    var teamID: String?
    var keyFile: String?

    package static let usage = """
          --apns-bundle-id ID  turn on HomeSec's APNs notifier for the app ID: events (POST /__test/event) are
                               pushed to its enabled devices (env HOMESEC_APNS_BUNDLE_ID)
          --apns-base-url URL  where to POST /3/device/TOKEN, e.g. the stand-in's http://127.0.0.1:PORT
                               (default Apple's; env HOMESEC_APNS_BASE_URL)
          --apns-environment sandbox|production
                               the devices it pushes to (default sandbox; env HOMESEC_APNS_ENVIRONMENT)
          --apns-key-id ID     the signing key's id, "kid" (env HOMESEC_APNS_KEY_ID)
          --apns-team-id ID    the team id, "iss" (env HOMESEC_APNS_TEAM_ID)
          --apns-key PEM       the signing key's file, Apple's AuthKey_KEYID.p8 (env HOMESEC_APNS_PRIVATE_KEY:
                               the PEM text itself)
        """

    /// Takes `flag` and its value from `rest` when it is one of ours.
    mutating func take(_ flag: String, _ rest: inout ArraySlice<String>) throws(UsageError) -> Bool {
        func value(_ what: String) throws(UsageError) -> String {
            guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("--") else { throw UsageError("\(flag) takes \(what)") }
            return value
        }
        switch flag {
        case "--apns-base-url": baseURL = try value("a URL, e.g. http://127.0.0.1:8443")
        case "--apns-environment": environment = try value("sandbox or production")
        case "--apns-bundle-id": bundleID = try value("a bundle id, e.g. com.example.homesec")
        case "--apns-key-id": keyID = try value("the key id of your APNs signing key")
        case "--apns-team-id": teamID = try value("your team id")
        case "--apns-key": keyFile = try value("a PEM file (Apple's AuthKey_KEYID.p8)")
        default: return false
        }
        return true
    }

    /// The notifier to run, or nil when no bundle id was given. Without all three credentials
    /// the notifier still runs, as HomeSec's does, and every event fails saying so (`warnings`).
    func resolve(_ environment: (String) -> String?) throws(UsageError)
        -> (config: HomeSecNotifier.Config, signer: ES256Signer?, warnings: [String])? {
        func env(_ name: String) -> String? {
            guard let value = environment(name)?.trimmingASCIIWhitespace, !value.isEmpty else { return nil }
            return value
        }
        guard let bundle = bundleID ?? env("HOMESEC_APNS_BUNDLE_ID") else {
            if baseURL != nil || self.environment != nil || keyID != nil || teamID != nil || keyFile != nil {
                throw UsageError("the --apns-… options need --apns-bundle-id ID (the app the notifier pushes to)")
            }
            return nil
        }
        guard APNsPushType.isWellFormed(topic: bundle) else { throw UsageError("--apns-bundle-id takes a bundle id, e.g. com.example.homesec") }
        let mode = self.environment ?? env("HOMESEC_APNS_ENVIRONMENT") ?? "sandbox"
        guard HomeSecDevices.environments.contains(mode) else { throw UsageError("--apns-environment (or HOMESEC_APNS_ENVIRONMENT) takes sandbox or production") }
        let base = baseURL ?? env("HOMESEC_APNS_BASE_URL")
        if let base {
            guard base.hasPrefix("http://") || base.hasPrefix("https://"), base.split(separator: "/").count >= 2,
                  base.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw UsageError("--apns-base-url takes an http:// or https:// URL, e.g. the stand-in's http://127.0.0.1:PORT")
            }
        }
        let config = HomeSecNotifier.Config(bundleID: bundle, environment: mode, baseURL: base)
        var warnings: [String] = []
        let kid = keyID ?? env("HOMESEC_APNS_KEY_ID"), team = teamID ?? env("HOMESEC_APNS_TEAM_ID")
        var pem: (bytes: [UInt8], source: String)?
        if let keyFile {
            let bytes: [UInt8]
        do throws(UsageError) { bytes = try FileReading.bytes(keyFile, limit: 64 * 1024) } catch { throw UsageError("--apns-key \(keyFile): \(error.message)") }
            pem = (bytes, "--apns-key \(keyFile)")
        } else if let text = env("HOMESEC_APNS_PRIVATE_KEY") {
            pem = (Array(text.replacingEscapedNewlines.utf8), "HOMESEC_APNS_PRIVATE_KEY")
        }
        if kid == nil { warnings.append("APNs key id not found: give --apns-key-id or HOMESEC_APNS_KEY_ID") }
        if team == nil { warnings.append("APNs team id not found: give --apns-team-id or HOMESEC_APNS_TEAM_ID") }
        if pem == nil { warnings.append("APNs private key not found: give --apns-key FILE or HOMESEC_APNS_PRIVATE_KEY") }
        guard let kid, let team, let pem else { return (config, nil, warnings) }
        for (flag, word) in [("--apns-key-id", kid), ("--apns-team-id", team)] where !word.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            throw UsageError("\(flag) takes printable ASCII without spaces")
        }
        return (config, try ES256Signer(pem: pem.bytes, keyID: kid, teamID: team, source: pem.source), warnings)
    }
}

private extension String {
    /// Without spaces, tabs and line breaks at either end.
    var trimmingASCIIWhitespace: String {
        let bytes = Array(utf8), space: (UInt8) -> Bool = { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
        guard let first = bytes.firstIndex(where: { !space($0) }), let last = bytes.lastIndex(where: { !space($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// `\n` written as a backslash and an n (as an environment file holds a PEM) → a newline.
    var replacingEscapedNewlines: String {
        var out: [UInt8] = []
        var bytes = utf8.makeIterator()
        var pending: UInt8?
        while let byte = pending ?? bytes.next() {
            pending = nil
            if byte == UInt8(ascii: "\\"), let next = bytes.next() {
                if next == UInt8(ascii: "n") { out.append(0x0A) } else { out.append(byte); pending = next }
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
