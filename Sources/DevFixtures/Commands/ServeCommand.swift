import CGtk
import Glibc
import HostCore
import StudioContract

/// `hostshell serve --reference [--installation UUID] [--fail PATH=STATUS]`: serves the reference Studio on a free
/// loopback port until interrupted; prints its address first. For trying the reference Studio in
/// a browser, and for tests that need a real server. `serve --homesec` is `HomeSecServeCommand`.
package enum ServeCommand {
    package static let usage = "usage: hostshell serve --reference [--port N] [--installation UUID] [--organization NAME] [--fail PATH=STATUS]… [--tls DIR] [--root DIR] [--require-sign-in] [--auto-approve | --auto-deny] [--legacy-auth] [--token-lifetime S] [--oauth-issuer URL] [--bench-token TOKEN]"

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        if arguments.contains("--homesec") { return try HomeSecServeCommand.run(arguments) }
        if arguments.first == "--help" || arguments.first == "-h" {
            printOut(usage + "\n       hostshell serve --homesec … (see hostshell serve --homesec --help)")
            return ExitCode.success
        }
        var reference = false
        var installation = "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e"
        var organization = "Reference Studio"
        var port = 0
        var failures: [String: UInt32] = [:]
        var tls: String?
        var auth = ReferenceAuth.Options()
        var benchToken: String?
        var served: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--reference": reference = true
            case "--installation":
                guard let value = rest.popFirst(), Patterns.isUUID(value) else { throw UsageError("--installation takes a UUID") }
                installation = value.lowercased()
            case "--port":
                guard let value = rest.popFirst().flatMap(CommandLineRules.port) else {
                    throw UsageError("--port takes a port number from 1 to 65535")
                }
                port = value
            case "--organization":
                let length = ServerIdentity.organizationNameLength
                guard let value = rest.popFirst(), Patterns.hasLength(value, in: length) else {
                    throw UsageError("--organization takes a name of \(length.lowerBound)–\(length.upperBound) characters")
                }
                organization = value
            case "--fail":
                // For tests: answer PATH with an HTTP error status.
                guard let value = rest.popFirst(), let equals = value.lastIndex(of: "="), value.hasPrefix("/"),
                      let status = UInt32(value[value.index(after: equals)...]), (400...599).contains(status) else {
                    throw UsageError("--fail takes PATH=STATUS with an absolute path and a status from 400 to 599, e.g. /=500")
                }
                failures[String(value[..<equals])] = status
            case "--tls":
                // For tests: HTTPS with DIR/cert.pem and DIR/key.pem (see fixtures/tls).
                guard let value = rest.popFirst(), !value.hasPrefix("-") else { throw UsageError("--tls takes a directory with cert.pem and key.pem") }
                tls = value
            case "--root":
                // For tests: serve DIR's files in place of the reference Studio's (media streams).
                guard let value = rest.popFirst(), !value.hasPrefix("-") else { throw UsageError("--root takes the directory whose files to serve") }
                served = value
            // Sign-in knobs, for tests of the app's sign-in against a real server.
            case "--require-sign-in": auth.requireSignIn = true
            case "--auto-approve": auth.autoDecision = "approve"
            case "--auto-deny": auth.autoDecision = "deny"
            case "--legacy-auth": auth.legacy = true
            case "--token-lifetime":
                guard let value = rest.popFirst().flatMap(Double.init), value >= 1, value <= 86_400 else {
                    throw UsageError("--token-lifetime takes seconds from 1 to 86400")
                }
                auth.tokenLifetime = value
            case "--bench-token":
                // For scripts/bench: a ready credential, so uploads can be timed without a sign-in window.
                guard let value = rest.popFirst(), Credential.isAccessToken(value) else {
                    throw UsageError("--bench-token takes an access token: \(Credential.accessTokenMarker)… without spaces")
                }
                benchToken = value
            case "--oauth-issuer":
                guard let value = rest.popFirst(), Origin(url: value) != nil else { throw UsageError("--oauth-issuer takes an origin URL") }
                auth.issuer = value
            default: throw UsageError(usage)
            }
        }
        guard reference else { throw UsageError(usage) }
        guard let root = served ?? FixtureServer.locateReferenceStudio() else {
            throw UsageError("the reference Studio (fixtures/studio) was not found; set HOSTSHELL_STUDIO_DIR")
        }
        let result: Result<Int32, UsageError> = MainActor.assumeIsolated {
            let server = FixtureServer(root: root, installationId: installation, organizationName: organization)
            server.failures = failures
            server.auth.options = auth
            if let benchToken { server.auth.addBenchGrant(benchToken, now: wallClockSeconds()) }
            do throws(UsageError) {
                if let tls { try server.useTLS(tls) }
                try server.start(port: port)
            } catch {
                return .failure(error)
            }
            printOut(server.baseURL)
            fflush(nil)  // the address must reach a reading parent at once
            let loop = g_main_loop_new(nil, 0)
            for signal in [SIGINT, SIGTERM] {
                g_unix_signal_add(signal, { data in g_main_loop_quit(OpaquePointer(data)); return 0 }, UnsafeMutableRawPointer(loop))
            }
            g_main_loop_run(loop)
            server.stop()
            return .success(ExitCode.success)
        }
        return try result.get()
    }
}
