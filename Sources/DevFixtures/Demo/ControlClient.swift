import Foundation
import HostCore
import Push
import StudioContract
import ShellKit

/// A blocking client of a running app's control interface (what `hostshell ctl` sends, one
/// request per connection), for a tour that drives an app in another process.
package struct ControlClient {
    let socketPath: String

    /// The request `ctl` would send for these words; its result, or the app's error (or why
    /// there was no answer) as one line.
    func send(_ words: [String]) -> Result<JSONValue, ControlError> {
        do throws(ControlError) {
            let line = try ControlRequest.line(fromArguments: words, vocabularies: [StudioControl.self, PushControl.self, HermesControl.self],
                                                   workingDirectory: FileReading.workingDirectory)
            let answer: String
            do throws(UsageError) {
                let socket = try UnixSocket(connectingTo: socketPath)
                try socket.send(line)
                answer = try socket.receiveLine(timeout: ControlRequest.answerTimeout(forLine: line))
            } catch {
                throw ControlError(error.message)
            }
            guard let object = (try? JSONParser.parse(answer))?.objectValue, let ok = object["ok"]?.boolValue else {
                throw ControlError("the app answered something that is not a control response: \(answer.prefix(200))")
            }
            guard ok else { throw ControlError(object["error"]?.stringValue ?? "the app refused the request") }
            return .success(object["result"] ?? .null)
        } catch {
            return .failure(error)
        }
    }

    func state() -> JSONValue? { try? send(["state"]).get() }

    /// Evaluates `script` (an expression) in the app's page.
    func eval(_ script: String) -> Result<JSONValue, ControlError> { send(["eval", script]) }

    /// Polls `script` until it is true (or anything but null and false), or `timeout` passes.
    func evalUntil(_ script: String, timeout: Double) -> Bool {
        let deadline = monotonicSeconds() + timeout
        repeat {
            switch eval(script) {
            case .success(.null), .success(.bool(false)): break
            case .success: return true
            case .failure: break  // the page may be between documents
            }
            usleep(50_000)
        } while monotonicSeconds() < deadline
        return false
    }

    /// True once the app's control socket answers, false if `process` ended first or the time passed.
    func waitUntilListening(_ process: Process, timeout: Double) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline && process.isRunning {
            if UnixSocket.isListening(socketPath), state() != nil { return true }
            usleep(50_000)
        }
        return false
    }
}
