import CGtk
import Glibc
import HostCore
import Push

/// `hostshell apns token --team ID --key-id KEYID --key-file AuthKey.p8`: the provider token to
/// send by hand (curl), printed without "bearer ". It is the token the Hermes gateway keeps for
/// the same team and key (`ProviderTokenStore`) while that one is valid, else a new one that the
/// gateway then reuses — so trying the stand-in by hand and then the gateway, with one key, does
/// not make Apple's rule refuse the second (`TooManyProviderTokenUpdates`).
package enum ProviderTokenCommand {
    package static let usage = """
        usage: hostshell apns token --team ID --key-id KEYID --key-file AuthKey_KEYID.p8 [--new]
        Prints a provider token (the JWT for "authorization: bearer …") for a push by hand. It is the token
        kept in $XDG_CACHE_HOME/hostshell/provider-tokens/ for this team and key while that one is valid (50
        minutes), else a new one that is kept: the Hermes gateway reads and writes the same place, so a token
        made here and the gateway's are one token, as Apple wants one per key at most every 20 minutes.
          --team ID         the team id ("iss") (required)
          --key-id KEYID    the key's id ("kid") (required)
          --key-file FILE   the private key, PEM (Apple's AuthKey_KEYID.p8) (required)
          --new             sign a new token now and keep it (the stand-in refuses it within 20 minutes
                            of the key's last new one unless run with --token-update-interval 0)
        """

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var values: [String: String] = [:]
        var new = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": printOut(usage); return ExitCode.success
            case "--team", "--key-id", "--key-file":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("--") else { throw UsageError("\(argument) takes a value; see --help") }
                values[argument] = value
            case "--new": new = true
            default: throw UsageError("unknown argument \(argument) for apns token; run \"hostshell apns token --help\"")
            }
        }
        for flag in ["--team", "--key-id", "--key-file"] where values[flag] == nil {
            throw UsageError("apns token needs \(flag); see --help")
        }
        let signer = try ES256Signer(keyFile: values["--key-file"]!, keyID: values["--key-id"]!, teamID: values["--team"]!)
        let store = ProviderTokenStore(signer: signer)
        let now = wallClockSeconds()
        let token = new ? store.newToken(now: now) : store.token(now: now)?.text
        guard let token else { throw UsageError("apns token: libcrypto could not sign with \(values["--key-file"]!)") }
        printOut(token)
        return ExitCode.success
    }
}
