import HostCore
import ShellKit

/// `hostshell bench control SOCKET [--count N]`: the control interface's round trip — one
/// `state` request answered by the running app, over one connection, N times — as p50 and p99.
/// `scripts/bench` runs it against `open --control` on the reference Studio.
package enum ControlBench {
    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var rest = arguments[...]
        guard let path = rest.popFirst(), !path.hasPrefix("-") else {
            throw UsageError("usage: hostshell bench control SOCKET [--count N]")
        }
        var count = 500
        while let argument = rest.popFirst() {
            guard argument == "--count", let value = rest.popFirst().flatMap(Int.init), (10...100_000).contains(value) else {
                throw UsageError("usage: hostshell bench control SOCKET [--count N] (N from 10 to 100000)")
            }
            count = value
        }
        let socket = try UnixSocket(connectingTo: path)
        var times: [Double] = []
        times.reserveCapacity(count)
        for index in 0..<count {
            let start = monotonicSeconds()
            try socket.send(#"{"id":\#(index),"command":"state"}"#)
            let answer = try socket.receiveLine(timeout: 10)
            times.append((monotonicSeconds() - start) * 1e6)
            guard answer.contains(#""ok":true"#) else { throw UsageError("the app answered an error: \(answer.prefix(200))") }
        }
        times.sort()
        let p50 = times[times.count / 2], p99 = times[min(times.count - 1, times.count * 99 / 100)]
        printJSON(#"{"requests":\#(count),"p50Us":\#((p50 * 10).rounded() / 10),"p99Us":\#((p99 * 10).rounded() / 10)}"#)
        return ExitCode.success
    }
}
