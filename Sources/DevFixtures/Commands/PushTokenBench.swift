import CGtk
import HostCore
import PushShell

/// `hostshell bench push-token KEY-FILE KEY-ID TEAM-ID`: a provider token signed now with the
/// key (Apple's .p8), printed without "bearer ", for load tools (`scripts/bench push-throughput`
/// hands it to h2load) — the same signer HomeSec's reference notifier and the Hermes gateway use.
package enum PushTokenBench {
    package static let usage = "usage: hostshell bench push-token KEY-FILE KEY-ID TEAM-ID"

    static func token(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count == 3, !arguments[1].isEmpty, !arguments[2].isEmpty else { throw UsageError(usage) }
        let signer = try ES256Signer(keyFile: arguments[0], keyID: arguments[1], teamID: arguments[2])
        guard let token = signer.providerToken(issuedAt: Int(wallClockSeconds())) else {
            throw UsageError("bench push-token: libcrypto could not sign with \(arguments[0])")
        }
        printOut(token)
        return ExitCode.success
    }
}
