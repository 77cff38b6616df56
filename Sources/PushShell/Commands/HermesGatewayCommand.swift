import CGtk
import Glibc
import HostCore
import Push

/// `hostshell hermes-gateway serve --secret S …`: the Hermes push gateway on loopback, in front
/// of an APNs provider API (the stand-in), until interrupted. Prints the push URL to configure
/// the plugin with (stdout), then the plugin's setting line and its APNs base URLs (stderr).
package enum HermesGatewayCommand {
    package static let usage = """
        usage: hostshell hermes-gateway serve --secret S --team ID --key-id KEYID --key-file AuthKey.p8 --topic BUNDLE-ID
                                              --apns-sandbox URL [--apns-production URL] [--port N] [--no-token-cache]
        The stateless gateway Hermes' push plugin posts to (it holds the APNs key). It prints its push URL,
        http://127.0.0.1:PORT/push, and the line that configures the plugin with it:
          HERMES_PUSH_GATEWAY_URL=http://127.0.0.1:PORT/push
        (the plugin registers at the same URL with /push replaced by /register; a plugin given the bare
        http://127.0.0.1:PORT posts its pushes to / and registers at /register, which are answered too).
          POST /register {device_token}  → {capability}: hex HMAC-SHA256(secret, "hpc1:" + device_token)
          POST /push (or /) {device_token, apns_env, capability, type, session_id, title, body, thread_id?}
                                         → 403 unless the capability is the token's; else the push goes to
                                           APNs (apns-collapse-id = session_id; aps alert, sound, thread-id,
                                           interruption-level; session_id and type) and the answer is 200,
                                           410 for a token APNs reports gone, 400 for a push APNs refuses,
                                           502 for anything the plugin should retry — APNs not answering
                                           within \(HermesGateway.apnsWaitSeconds) s included, under the plugin's own \(Int(HermesPluginSender.timeoutSeconds)) s timeout
        Its provider token is kept in $XDG_CACHE_HOME/hostshell/provider-tokens/ and reused after a restart
        while it is valid (Apple refuses a new one for a key within 20 minutes: TooManyProviderTokenUpdates);
        hostshell apns token makes or reuses the same token for a push by hand.
          --secret S              the gateway secret capabilities are made with (required)
          --team ID               the team id of the provider tokens it signs (required)
          --key-id KEYID          the signing key's id (required)
          --key-file FILE         the signing key, PEM (Apple's AuthKey_KEYID.p8) (required)
          --topic BUNDLE-ID       Hermes' app's bundle id, sent as apns-topic (required)
          --apns-sandbox URL      the provider API's base URL for sandbox tokens, e.g. the sandbox address
                                  hostshell apns serve prints (HTTP/1.1)
          --apns-production URL   the same for production tokens (at least one of the two)
          --port N                listen on 127.0.0.1:N (default: a free port)
          --no-token-cache        keep the provider token in memory only (a restart makes a new one)
        """

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.first == "serve" else {
            if ["--help", "-h", "help"].contains(arguments.first ?? "") { printOut(usage); return ExitCode.success }
            throw UsageError("hermes-gateway takes the subcommand serve; run \"hostshell hermes-gateway serve --help\"")
        }
        var values: [String: String] = [:]
        var bases: [APNsEnvironment: String] = [:]
        var port = 0
        var tokenCache = true
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": printOut(usage); return ExitCode.success
            case "--secret", "--team", "--key-id", "--key-file", "--topic":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("--") else { throw UsageError("\(argument) takes a value; see --help") }
                values[argument] = value
            case "--apns-sandbox", "--apns-production":
                guard let value = rest.popFirst(), value.hasPrefix("http://") || value.hasPrefix("https://") else {
                    throw UsageError("\(argument) takes a base URL, e.g. http://127.0.0.1:40101")
                }
                bases[argument == "--apns-sandbox" ? .sandbox : .production] = value.hasSuffix("/") ? String(value.dropLast()) : value
            case "--no-token-cache": tokenCache = false
            case "--port":
                guard let value = rest.popFirst().flatMap(Int.init), (1...65535).contains(value) else {
                    throw UsageError("--port takes a port number from 1 to 65535 (leave it out to have a free port picked)")
                }
                port = value
            default:
                throw UsageError("unknown argument \(argument) for hermes-gateway serve; run \"hostshell hermes-gateway serve --help\"")
            }
        }
        for flag in ["--secret", "--team", "--key-id", "--key-file", "--topic"] where values[flag] == nil {
            throw UsageError("hermes-gateway serve needs \(flag); see --help")
        }
        guard !bases.isEmpty else { throw UsageError("hermes-gateway serve needs --apns-sandbox URL or --apns-production URL") }
        guard APNsPushType.isWellFormed(topic: values["--topic"]!) else { throw UsageError("--topic takes a bundle id, e.g. com.example.hermes") }
        let settings = HermesGatewayServer.Settings(secret: Array(values["--secret"]!.utf8), topic: values["--topic"]!, bases: bases,
                                                    tokenDirectory: tokenCache ? ProviderTokenStore.defaultDirectory : nil)
        let keyFile = values["--key-file"]!, keyID = values["--key-id"]!, team = values["--team"]!
        let result: Result<Int32, UsageError> = MainActor.assumeIsolated {
            do throws(UsageError) {
                let signer = try ES256Signer(keyFile: keyFile, keyID: keyID, teamID: team)
                let gateway = HermesGatewayServer(settings: settings, signer: signer)
                try gateway.start(port: port)
                let base = "http://127.0.0.1:\(gateway.port)"
                printOut(HermesGateway.pushURL(base: base))
                printError("Hermes gateway: configure the hermes-push plugin with " + HermesGateway.pluginSetting(base: base)
                           + " (it registers at \(HermesPluginSender.registerURL(pushURL: HermesGateway.pushURL(base: base))))")
                printError("Hermes gateway: APNs " + bases.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
                fflush(nil)
                let loop = g_main_loop_new(nil, 0)
                for signal in [SIGINT, SIGTERM] {
                    g_unix_signal_add(signal, { data in g_main_loop_quit(OpaquePointer(data)); return 0 }, UnsafeMutableRawPointer(loop))
                }
                g_main_loop_run(loop)
                withExtendedLifetime(gateway) {}
                return .success(ExitCode.success)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
