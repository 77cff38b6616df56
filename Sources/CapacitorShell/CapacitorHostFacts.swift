import CGtk
import HostCore
import Push

/// What the machine tells a Capacitor app about itself, for `CapacitorAppInfo` (HomeSecDevice
/// reports them to the app's server): the device's name, and the command's word for the APNs
/// environment.
package enum CapacitorHostFacts {
    /// The name a person gave the machine (`PRETTY_HOSTNAME` in /etc/machine-info, as
    /// `hostnamectl` sets it), else its host name; nil when neither is known.
    static func deviceName(machineInfo: String = "/etc/machine-info") -> String? {
        if let bytes = try? FileReading.bytes(machineInfo, limit: 64 << 10) {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("PRETTY_HOSTNAME=") {
                var value = line.dropFirst("PRETTY_HOSTNAME=".count)
                if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                    value = value.dropFirst().dropLast()
                }
                let name = value.trimmingCharacters(in: " \t")
                if !name.isEmpty { return name }
            }
        }
        guard let host = g_get_host_name() else { return nil }
        let name = String(cString: host)
        return name.isEmpty ? nil : name
    }

    /// `--apns-environment`'s value as the plugins read it (`sandbox` or `production`); a bad
    /// word is a usage error that says what it takes.
    static func apnsEnvironment(_ flag: String?) throws(UsageError) -> String {
        guard let flag else { return APNsEnvironment.sandbox.rawValue }
        guard let environment = APNsEnvironment(flag: flag) else { throw UsageError(APNsEnvironment.flagError) }
        return environment.rawValue
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
