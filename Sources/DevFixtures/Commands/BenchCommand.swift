import CGtk
import CapacitorShell
import Glibc
import HostCore
import ShellKit
import StudioContract
import StudioShell

/// `hostshell bench codec`: throughput of the bridge codec on one core — decode, validate and
/// encode the reply of typical messages. `scripts/bench` runs it on a release build beside the
/// plain-C floor (`bench/codec_floor.c`) reading the same files.
package enum BenchCommand {
    package static let usage = "usage: hostshell bench codec [--seconds S | --count N] [--json] FILE… | hostshell bench live URL | hostshell bench upload ORIGIN FILE TOKEN | hostshell bench capacitor WEB-DIR | hostshell bench control SOCKET [--count N] | hostshell bench rendering | hostshell bench push-token KEY-FILE KEY-ID TEAM-ID | hostshell bench push CONTROL-SOCKET APNS-URL KEY.p8 KEYID TEAM [--count N] | hostshell bench push --floor SOCKET"

    /// The live host on one page (see `LiveBench`); needs a display.
    static func live(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count == 1, let url = arguments.first, let origin = Origin(url: url) else {
            throw UsageError("usage: hostshell bench live URL")
        }
        let rendering = try MainLoop.startGTK(noDisplay: "bench live needs a display (scripts/bench starts Xvfb)", adwaita: false)
        return MainActor.assumeIsolated { LiveBench(url: url, origin: origin, environment: AppEnvironment(rendering: rendering)).run() }
    }

    /// `hostshell bench rendering`: the rendering variables HostShell would run GTK and WebKit
    /// with on this machine (`RenderingPolicy`), as `NAME=VALUE` words for `env`, so the plain-C
    /// floors are measured drawing the same way.
    static func rendering() -> Int32 {
        RenderingSetup.apply()
        printOut(LiveBench.renderingVariables.compactMap { name in getenv(name).map { "\(name)=\(String(cString: $0))" } }.joined(separator: " "))
        return ExitCode.success
    }

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        if arguments == ["rendering"] { return rendering() }
        if arguments.first == "live" { return try live(Array(arguments.dropFirst())) }
        if arguments.first == "upload" { return try UploadBench.run(Array(arguments.dropFirst())) }
        if arguments.first == "capacitor" { return try CapacitorBench.run(Array(arguments.dropFirst())) }
        if arguments.first == "control" { return try ControlBench.run(Array(arguments.dropFirst())) }
        if arguments.first == "push-token" { return try PushTokenBench.token(Array(arguments.dropFirst())) }
        if arguments.first == "push" { return try PushBench.run(Array(arguments.dropFirst())) }
        guard arguments.first == "codec" else { throw UsageError(usage) }
        var seconds = 1.0
        var json = false
        var count: Int? = nil
        var files: [String] = []
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--seconds":
                guard let value = rest.popFirst().flatMap({ CommandLineRules.seconds($0, in: 0.001...600) }) else {
                    throw UsageError("--seconds takes a number of seconds between 0 and 600")
                }
                seconds = value
            case "--count":
                // A fixed number of iterations, for instruction counting under callgrind.
                guard let value = rest.popFirst().flatMap(Int.init), value > 0 else {
                    throw UsageError("--count takes a positive number of iterations")
                }
                count = value
            case "--json": json = true
            default:
                if argument.hasPrefix("-") { throw UsageError("unknown option \(argument); \(usage)") }
                files.append(argument)
            }
        }
        guard !files.isEmpty else { throw UsageError("bench codec needs message files; \(usage)") }
        let capabilities = HostCapabilities.offered(to: .main, available: Set(HostCapability.allCases))
        for file in files {
            let text = String(decoding: try FileReading.bytes(file), as: UTF8.self)
            guard case .success = StudioMessageDecoder.decode(text, context: .main) else {
                throw UsageError("\(file) is not a valid Studio message")
            }
            let body = { () -> Int in
                // The host's whole codec path for one message: text in, reply text out.
                let reply: Reply
                switch StudioMessageDecoder.decode(text, context: .main) {
                case .success(let inbound):
                    if case .configGet = inbound.message {
                        reply = .ok(inbound.id, ConfigReply(context: .main, capabilities: capabilities).payload)
                    } else {
                        reply = .ok(inbound.id)
                    }
                case .failure(let failure):
                    reply = failure.reply
                }
                return reply.text.utf8.count  // what the host hands back to WebKit
            }
            if let count {
                var sink = 0
                for _ in 0..<count { sink &+= body() }
                printOut("\(file)\t\(count) iterations\t\(sink) reply bytes")
                continue
            }
            let rate = measure(seconds: seconds, body)
            let name = file.split(separator: "/").last.map(String.init) ?? file
            if json {
                printJSON(#"{"message":"\#(name)","messagesPerSecond":\#(Int(rate))}"#)
            } else {
                printOut("\(name)\t\(Int(rate)) msg/s\t\(String(format1: 1e6 / rate)) µs/msg")
            }
        }
        return ExitCode.success
    }

    /// Messages per second: the median of five rounds of `seconds / 5` each, after a warm-up.
    static func measure(seconds: Double, _ body: () -> Int) -> Double {
        var sink = 0
        for _ in 0..<2_000 { sink &+= body() }
        var rates: [Double] = []
        for _ in 0..<5 {
            let start = monotonicSeconds()
            var count = 0
            while monotonicSeconds() - start < seconds / 5 {
                for _ in 0..<500 { sink &+= body() }
                count += 500
            }
            rates.append(Double(count) / (monotonicSeconds() - start))
        }
        if sink == 42 { printOut("") }  // keeps the work observable to the optimizer
        return rates.sorted()[2]
    }
}
