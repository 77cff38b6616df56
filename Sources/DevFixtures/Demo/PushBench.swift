import Glibc
import HostCore
import PushShell
import ShellKit

/// `hostshell bench push`: push latency, provider request → the page's `pushNotificationReceived`,
/// timed on one clock (the sender's): from just before the request is written until the sender
/// hears that the page's listener ran.
///
///     bench push CONTROL-SOCKET APNS-URL KEY.p8 KEYID TEAM [--count N]
/// drives a running `hostshell capacitor` app of the reference HomeSec bundle (registers it for
/// push through its control socket), then sends N pushes one after another to `hostshell apns
/// serve` over HTTP/1.1 with a real ES256 provider token; the page's listener logs a console
/// line, which the sender reads on the app's event stream (`ctl events --kind bridge`). So it
/// counts the request, the token's verification, the answer, the hop to the app's process, the
/// bridge into the page and the page's word back.
///
///     bench push --floor SOCKET [--count N]
/// is the same sender against `bench/push_floor.c`: a plain-C WebKitGTK page that takes a line
/// on a Unix socket into its script and says so through a bare script message handler.
/// Prints `{"p50Ms":…,"p99Ms":…,"count":N}`.
package enum PushBench {
    package static let usage = "usage: hostshell bench push CONTROL-SOCKET APNS-URL KEY.p8 KEYID TEAM [--count N] | hostshell bench push --floor SOCKET [--count N]"

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var words = arguments
        var count = 200
        if let index = words.firstIndex(of: "--count") {
            guard index + 1 < words.count, let n = Int(words[index + 1]), (1...200).contains(n) else {
                throw UsageError("--count takes a number from 1 to 200 (the page keeps the last 200 pushes)")
            }
            count = n
            words.removeSubrange(index...index + 1)
        }
        let latencies: [Double]
        if words.first == "--floor" {
            guard words.count == 2 else { throw UsageError(usage) }
            latencies = try floor(words[1], count: count)
        } else {
            guard words.count == 5, let url = words[1].split(separator: "/").dropFirst().first, let port = url.split(separator: ":").last.flatMap({ UInt16($0) }) else {
                throw UsageError(usage)
            }
            latencies = try hostShell(control: ControlClient(socketPath: words[0]), port: port, signer: ES256Signer(keyFile: words[2], keyID: words[3], teamID: words[4]), count: count)
        }
        guard latencies.count == count else { throw UsageError("bench push: \(latencies.count) of \(count) pushes reached the page") }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
        func ms(_ value: Double) -> String { String(Double(Int(value * 1000)) / 1000) }
        printOut("{\"p50Ms\":\(ms(percentile(0.5))),\"p99Ms\":\(ms(percentile(0.99))),\"count\":\(count)}")
        return ExitCode.success
    }

    static func nowMs() -> Double { monotonicSeconds() * 1000 }

    static func wallSeconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return ts.tv_sec
    }

    /// Registers the app, pushes `count` times, and reads when each reached the page.
    static func hostShell(control: ControlClient, port: UInt16, signer: ES256Signer, count: Int) throws(UsageError) -> [Double] {
        func must(_ result: Result<JSONValue, ControlError>, _ what: String) throws(UsageError) -> JSONValue {
            switch result {
            case .success(let value): return value
            case .failure(let error): throw UsageError("bench push: \(what): \(error.message)")
            }
        }
        guard control.evalUntil("window.referenceApp && referenceApp.state.booted", timeout: 60) else { throw UsageError("bench push: the app did not boot") }
        _ = try must(control.eval("Capacitor.nativePromise('PushNotifications', 'requestPermissions', {}).catch(() => {}), true"), "requestPermissions")
        let deadline = monotonicSeconds() + 30
        var token: String?
        var appId: String?
        while token == nil && monotonicSeconds() < deadline {
            let state = control.state()?.objectValue
            let capacitor = state?["capacitor"]?.objectValue
            appId = state?["app"]?.objectValue?["id"]?.stringValue
            token = capacitor?["phone"]?.objectValue?["token"]?.stringValue
            if token == nil {
                if capacitor?["plugins"]?.objectValue?["PushNotifications"]?.objectValue?["waitingForPermission"]?.integerValue == 1 {
                    _ = control.send(["permission", "grant"])
                }
                _ = control.eval("Capacitor.nativePromise('PushNotifications', 'register', {}).catch(() => {}), true")
                usleep(50_000)
            }
        }
        guard let token, let appId else { throw UsageError("bench push: the app did not register for push") }
        guard let provider = signer.providerToken(issuedAt: wallSeconds() - 10) else { throw UsageError("bench push: no provider token could be signed") }
        let stream = try UnixSocket(connectingTo: control.socketPath)
        try stream.send(#"{"command":"events","kinds":["bridge"]}"#)
        _ = try stream.receiveLine(timeout: 10)
        var latencies: [Double] = []
        for n in 0..<count {
            let body = #"{"aps":{"alert":{"title":"Bench","body":"push \#(n)"}},"route":"/events/\#(n)"}"#
            let request = "POST /3/device/\(token) HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: bearer \(provider)\r\napns-topic: \(appId)\r\n"
                + "apns-push-type: alert\r\napns-priority: 10\r\ncontent-type: application/json\r\ncontent-length: \(body.utf8.count)\r\n\r\n" + body
            let start = nowMs()
            // A connection per push: the stand-in's HTTP/1.1 side closes each after its answer.
            let status = try HTTPClient(port: port).exchange(request)
            guard status == 200 else { throw UsageError("bench push: the stand-in answered \(status) to push \(n)") }
            while !(try stream.receiveLine(timeout: 10)).contains("push received") {}
            latencies.append(nowMs() - start)
        }
        return latencies
    }

    /// The floor: one connection per push to `bench/push_floor.c`'s socket, answered once its page got it.
    static func floor(_ socket: String, count: Int) throws(UsageError) -> [Double] {
        var latencies: [Double] = []
        for n in 0..<count {
            let start = nowMs()
            let connection = try UnixSocket(connectingTo: socket)
            try connection.send("\(n)")
            guard try connection.receiveLine(timeout: 10) == "got" else { throw UsageError("bench push: the floor did not say it got push \(n)") }
            latencies.append(nowMs() - start)
        }
        return latencies
    }
}

/// A blocking HTTP/1.1 client on one connection to 127.0.0.1: a request out, the status back
/// (the body read and dropped).
private final class HTTPClient {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(port: UInt16) throws(UsageError) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw UsageError("bench push: cannot connect to 127.0.0.1:\(port)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    func exchange(_ request: String) throws(UsageError) -> Int {
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw UsageError("bench push: the stand-in closed the connection")
        }
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            try fill()
            headerEnd = pending.indices.dropLast(3).first { Array(pending[$0..<$0 + 4]) == end }
        }
        let head = String(decoding: pending[..<headerEnd!], as: UTF8.self)
        pending.removeSubrange(..<(headerEnd! + 4))
        let lines = head.split(separator: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        let length = lines.compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "content-length" ? Int(parts[1].filter { $0 != " " }) : nil
        }.first ?? 0
        while pending.count < length { try fill() }
        pending.removeFirst(length)
        return status
    }

    private func fill() throws(UsageError) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw UsageError("bench push: the stand-in closed the connection") }
        pending += chunk[0..<n]
    }
}
