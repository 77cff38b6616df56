import CGtk
import Glibc
import HostCore
import Push

/// `hostshell apns serve …`: Apple's provider API on loopback, a listener per environment, until
/// interrupted. Prints each listener's address first (stdout), then how it is set up (stderr).
package enum APNsCommand {
    package static let usage = """
        usage: hostshell apns serve --team ID --key KEYID=PUBLIC.pem… [--sandbox-port N] [--production-port N]
                                    [--tls DIR] [--topic BUNDLE-ID]… [--device TOKEN=BUNDLE-ID[@ENV]]…
                                    [--record FILE] [--fault WHO=WHAT]… [--seed N] [--token-update-interval S] [--verbose]
               hostshell apns token --team ID --key-id KEYID --key-file AuthKey.p8 [--new]   (see apns token --help)
        Apple's provider API (POST /3/device/TOKEN) on 127.0.0.1, one port per environment. Each port
        speaks HTTP/1.1 (a plain http:// base URL), HTTP/2 with prior knowledge (h2c) and, with --tls,
        HTTP/2 over TLS (ALPN h2). Provider tokens are checked as Apple does: ES256 by the key named in
        "kid", "iss" the team, "iat" at most an hour old, a new token at most every 20 minutes per key.
          --team ID                  the team id provider tokens must carry as "iss" (required)
          --key KEYID=PUBLIC.pem     a signing key's public half (repeatable; at least one). From Apple's
                                     .p8: openssl pkey -in AuthKey_KEYID.p8 -pubout -out KEYID.pem
          --sandbox-port N           the sandbox listener's port, 1-65535 (default: a free port)
          --production-port N        the production listener's port, 1-65535 (default: a free port)
          --tls DIR                  also serve TLS with DIR/cert.pem and DIR/key.pem (e.g. fixtures/tls)
          --topic BUNDLE-ID          a bundle id the team may push to (repeatable; default: any) —
                                     others are TopicDisallowed
          --device TOKEN=BUNDLE-ID[@sandbox|@production]
                                     a device token and the app and environment it belongs to
                                     (repeatable). Without any, every well-formed token is taken and
                                     bound to the app and environment of its first push.
          --record FILE              append one JSON line per request: time, listener, HTTP version,
                                     the headers that matter, the provider token's kid/iss/iat (never the
                                     token), payload, answer, fault, delivered
          --fault WHO=WHAT           inject a fault (repeatable). WHO: a device token, "all", or
                                     "random:P" (a share from 0 to 1, drawn with --seed). WHAT: a reason
                                     (Unregistered and ExpiredToken answer 410 with a timestamp;
                                     TooManyRequests, ServiceUnavailable, Shutdown, … any of Apple's),
                                     410, 429, 500 or 503, or slow:MS to answer MS milliseconds late
          --seed N                   the seed for random faults (default 0: the same faults every run)
          --token-update-interval S  the shortest time between new provider tokens for a key
                                     (default 1200, Apple's 20 minutes; 0 turns the rule off)
          --verbose                  say each request on stderr: listener, method, token's end, topic,
                                     answer, and what became of the push
        An accepted push goes to the app on this machine that holds its token: a running app gets it at
        once (hostshell capacitor: the page's pushNotificationReceived in the foreground, a desktop
        notification in the background); an app that is not running finds it at its next start. The
        record's "delivered" says which: true, "kept", or false (no app here holds the token).
        Apps are found in $XDG_RUNTIME_DIR/hostshell/phones (the cache directory when XDG_RUNTIME_DIR is
        not set, as in many CI jobs): the stand-in and the apps must run with the same XDG_RUNTIME_DIR (and,
        for pushes kept for an app that is not running, the same XDG_DATA_HOME). It says where it looks at
        start, and says so on stderr when it takes a push for a token no app here holds.
        """

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        if arguments.first == "token" { return try ProviderTokenCommand.run(Array(arguments.dropFirst())) }
        guard arguments.first == "serve" else {
            if arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" { printOut(usage); return ExitCode.success }
            throw UsageError("apns takes the subcommand serve or token; run \"hostshell apns serve --help\" or \"hostshell apns token --help\"")
        }
        var team: String?
        var keys: [(String, String)] = []
        var ports: [APNsEnvironment: Int] = [.sandbox: 0, .production: 0]
        var tlsDirectory: String?
        var record: String?
        var verbose = false
        var options = APNsStandIn.Options(teamID: "", keyIDs: [])
        var rest = arguments.dropFirst()
        func value(_ flag: String, _ what: String) throws(UsageError) -> String {
            guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("--") else { throw UsageError("\(flag) takes \(what)") }
            return value
        }
        func port(_ flag: String) throws(UsageError) -> Int {
            guard let number = Int(try value(flag, "a port number")), (1...65535).contains(number) else {
                throw UsageError("\(flag) takes a port number from 1 to 65535 (leave it out to have a free port picked)")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": printOut(usage); return ExitCode.success
            case "--team":
                let word = try value(argument, "a team id")
                guard word.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw UsageError("--team takes a team id of printable ASCII, e.g. ABCDE12345") }
                team = word
            case "--key":
                let word = try value(argument, "KEYID=PUBLIC.pem")
                guard let equals = word.firstIndex(of: "="), equals != word.startIndex, word.index(after: equals) != word.endIndex else {
                    throw UsageError("--key takes KEYID=PUBLIC.pem, e.g. --key ABC123DEFG=ABC123DEFG.pem")
                }
                keys.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
            case "--sandbox-port": ports[.sandbox] = try port(argument)
            case "--production-port": ports[.production] = try port(argument)
            case "--tls": tlsDirectory = try value(argument, "a directory with cert.pem and key.pem")
            case "--topic":
                let word = try value(argument, "a bundle id")
                guard APNsPushType.isWellFormed(topic: word) else { throw UsageError("--topic takes a bundle id, e.g. com.example.app") }
                options.topics.insert(word)
            case "--device":
                switch APNsDevice.parse(try value(argument, "TOKEN=BUNDLE-ID[@ENV]")) {
                case .success(let parsed): options.devices[parsed.token] = parsed.device
                case .failure(let error): throw UsageError(error.message)
                }
            case "--verbose": verbose = true
            case "--record": record = try value(argument, "a file to append JSON lines to")
            case "--fault":
                switch APNsFault.parse(try value(argument, "WHO=WHAT")) {
                case .success(let fault): options.faults.append(fault)
                case .failure(let error): throw UsageError(error.message)
                }
            case "--seed":
                guard let seed = UInt64(try value(argument, "a number")) else { throw UsageError("--seed takes a whole number from 0") }
                options.seed = seed
            case "--token-update-interval":
                guard let seconds = Double(try value(argument, "seconds")), seconds >= 0, seconds <= 86_400 else {
                    throw UsageError("--token-update-interval takes seconds from 0 to 86400")
                }
                options.tokenUpdateInterval = seconds
            default:
                throw UsageError("unknown argument \(argument) for apns serve; run \"hostshell apns serve --help\"")
            }
        }
        guard let team else { throw UsageError("apns serve needs --team ID (the team id in your provider tokens' \"iss\")") }
        guard !keys.isEmpty else { throw UsageError("apns serve needs at least one --key KEYID=PUBLIC.pem") }
        if ports[.sandbox] != 0 && ports[.sandbox] == ports[.production] { throw UsageError("--sandbox-port and --production-port must differ") }
        options.teamID = team
        let settings = options, chosen = ports, keyFiles = keys
        let result: Result<Int32, UsageError> = MainActor.assumeIsolated {
            do throws(UsageError) {
                let verifier = ES256Keys()
                for (id, file) in keyFiles { try verifier.add(keyID: id, pemFile: file) }
                var final = settings
                final.keyIDs = verifier.keyIDs
                let tls = try tlsDirectory.map { dir throws(UsageError) in try TLSServerContext(certificate: dir + "/cert.pem", key: dir + "/key.pem") }
                let service = try APNsService(options: final, keys: verifier, delivery: PhoneDelivery(watching: true), recordPath: record)
                service.verbose = verbose
                var listeners: [APNsListener] = []
                for environment in APNsEnvironment.allCases {
                    let listener = APNsListener(environment: environment, service: service, tls: tls)
                    try listener.start(port: chosen[environment] ?? 0)
                    listeners.append(listener)
                }
                for listener in listeners {
                    printOut("\(listener.environment.rawValue) http://127.0.0.1:\(listener.port)" + (tls == nil ? "" : " https://127.0.0.1:\(listener.port)"))
                }
                printError("APNs stand-in: team \(TerminalText.escaped(team)), keys \(final.keyIDs.sorted().joined(separator: " ")); "
                           + (settings.devices.isEmpty ? "any well-formed device token" : "\(settings.devices.count) device(s)")
                           + (settings.faults.isEmpty ? "" : "; \(settings.faults.count) fault(s)") + (record.map { "; recording to \($0)" } ?? ""))
                printError(APNsConsole.startLine(phoneDirectory: PhoneListener.directory,
                                                 runtimeDirectorySet: !(getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "").isEmpty))
                fflush(nil)  // the addresses must reach a reading parent at once
                let loop = g_main_loop_new(nil, 0)
                for signal in [SIGINT, SIGTERM] {
                    g_unix_signal_add(signal, { data in g_main_loop_quit(OpaquePointer(data)); return 0 }, UnsafeMutableRawPointer(loop))
                }
                g_main_loop_run(loop)
                withExtendedLifetime((listeners, service)) {}
                return .success(ExitCode.success)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
