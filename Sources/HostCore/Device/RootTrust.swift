/// Trusting a private root certificate for one app's servers (`--trust-root-cert`, `ctl
/// trust-root-cert`, simctl's `keychain add-root-cert`): which PEM files are taken, and whether a
/// server's certificate that failed the system's check is let through. Only a chain that leads to
/// one of the app's own roots and names the host asked for is: never a blanket "ignore TLS errors".
public enum RootTrust {
    /// Largest PEM file read (a bundle of a few roots is a few kilobytes).
    public static let maxFileBytes = 1 << 20

    /// The longest wait for a server's TLS handshake before a load (the load follows anyway).
    public static let handshakeSeconds = 10

    /// Whether a load of `url` (on `host`) has its server's certificate checked against the roots
    /// first, so a certificate they vouch for is let through before the engine's own check: an
    /// https address on a host not let through yet, when any root is trusted.
    public static func checksBeforeLoading(_ url: String, host: String, trustedRoots: Int, allowedHosts: [String]) -> Bool {
        trustedRoots > 0 && url.lowercased().hasPrefix("https:") && !host.isEmpty && !allowedHosts.contains(host)
    }

    /// What a chain's check against the trusted roots found: GLib's GTlsCertificateFlags bits.
    public struct Flags: OptionSet, Sendable, Equatable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let unknownCA = Flags(rawValue: 1 << 0)
        public static let badIdentity = Flags(rawValue: 1 << 1)
        public static let notActivated = Flags(rawValue: 1 << 2)
        public static let expired = Flags(rawValue: 1 << 3)
        public static let revoked = Flags(rawValue: 1 << 4)
        public static let insecure = Flags(rawValue: 1 << 5)
        public static let genericError = Flags(rawValue: 1 << 6)
    }

    public enum Decision: Sendable, Equatable {
        /// Let this certificate through for this host, and load again.
        case allow
        /// Keep the TLS error screen, for this reason.
        case refuse(String)
    }

    /// The decision for `host`'s certificate, given how many roots the app trusts and what
    /// checking the chain against those roots alone (with `host` as the identity) found.
    public static func decide(host: String, trustedRoots: Int, verification: Flags) -> Decision {
        guard trustedRoots > 0 else {
            return .refuse("\(host)'s certificate is not trusted, and this app trusts no root of its own (add one with --trust-root-cert FILE or ctl trust-root-cert add FILE)")
        }
        if verification.isEmpty { return .allow }
        let reasons: [(Flags, String)] = [
            (.unknownCA, "it is not signed by a root this app trusts"),
            (.badIdentity, "it is not made out to \(host)"),
            (.notActivated, "it is not valid yet"),
            (.expired, "it has expired"),
            (.revoked, "it was revoked"),
            (.insecure, "it uses an insecure algorithm"),
            (.genericError, "it could not be checked"),
        ]
        let found = reasons.filter { verification.contains($0.0) }.map(\.1)
        return .refuse("\(host)'s certificate is refused: " + (found.isEmpty ? "it could not be checked" : found.joined(separator: ", ")))
    }

    /// Why the contents of the PEM file at `path` cannot be trusted as roots, or nil when it
    /// holds one or more certificates and nothing else.
    public static func fileProblem(_ text: String, path: String) -> String? {
        if text.utf8.count > maxFileBytes {
            return "\(path) is over \(maxFileBytes / 1024) KiB: give the root certificate alone, in PEM"
        }
        if text.contains("PRIVATE KEY-----") {
            return "\(path) holds a private key: give the CA's certificate only (openssl x509 -in CA.pem -out root.pem), and keep the key to yourself"
        }
        let begins = occurrences(of: "-----BEGIN CERTIFICATE-----", in: text)
        let ends = occurrences(of: "-----END CERTIFICATE-----", in: text)
        guard begins > 0 else {
            return "\(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----): convert a DER file with openssl x509 -inform der -in CA.der -out root.pem"
        }
        guard begins == ends else { return "\(path) has a certificate cut short (BEGIN without END): copy the whole file again" }
        return nil
    }

    /// How many certificates a valid PEM text holds.
    public static func certificateCount(_ text: String) -> Int { occurrences(of: "-----BEGIN CERTIFICATE-----", in: text) }

    private static func occurrences(of needle: String, in text: String) -> Int { text.ranges(of: needle).count }
}
