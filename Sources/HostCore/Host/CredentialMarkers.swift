/// Prefixes that mark a Tilecast credential (access, refresh, device, pairing tokens). Studio's
/// share rule refuses text carrying one, and every bridge log, of any app, redacts a string
/// carrying one: a log is never where such a token should be read again.
public enum CredentialMarkers {
    public static let prefixes = ["tca_", "tcr_", "tc_device_", "tc_pair"]
    private static let prefixBytes = prefixes.map { Array($0.utf8) }

    /// Whether `text` carries a marker anywhere, in any ASCII case.
    public static func contained(in text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in prefixBytes.contains { ScalarText.containsFoldingASCII(bytes, $0) } }
    }
}
