import CGtk
import Foundation
import Glibc
import HostCore
import Synchronization

/// SIGTERM and SIGINT end the app: in order through the main loop when it answers, and for
/// certain when it does not (issue 32 item 1). GLib's own signal sources (`g_unix_signal_add`)
/// run only when the main loop does, so a main thread blocked in a synchronous call — a keyring
/// prompt on a display nobody watches — used to ignore SIGTERM for good.
///
/// The signal handler only writes the signal's number to a pipe. A watchdog thread reads it,
/// asks the main loop to run `quit` (the orderly way: sockets closed, profiles removed, the usual
/// exit status) and, following `StopSignalRule`, ends the process itself when the main loop has
/// not answered in time: it removes the files registered with `removeOnForcedExit` (control
/// sockets) and calls `_exit(128 + signal)`.
package enum StopSignals {
    private struct State {
        var quit: (@MainActor () -> Void)?
        var answered = false
        var paths: [String: Int] = [:]
    }
    private static let state = Mutex(State())
    /// The pipe's write end, for the signal handler (set once, before a handler can run).
    nonisolated(unsafe) private static var pipeWrite: Int32 = -1
    nonisolated(unsafe) private static var pipeRead: Int32 = -1

    /// Handles SIGTERM and SIGINT from now on: at the first, `quit` runs on the main loop.
    /// Called again (another loop in the same process), the new `quit` replaces the old.
    @MainActor
    package static func install(rule: StopSignalRule = .standard, quit: @escaping @MainActor () -> Void) {
        let first = state.withLock { state -> Bool in
            state.quit = quit
            state.answered = false
            return pipeWrite < 0
        }
        guard first else { return }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // never inherited by a web process
        pipeRead = fds[0]
        pipeWrite = fds[1]
        let watchdog = Thread { watch(rule) }
        watchdog.name = "hostshell-stop-signals"
        watchdog.start()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(StopSignals.pipeWrite, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in [SIGTERM, SIGINT] { sigaction(signal, &action, nil) }
    }

    /// The main loop has returned and the app is ending in order: the watchdog gives it the
    /// finish grace, not the answer grace.
    @MainActor
    package static func finishing() { state.withLock { $0.answered = true } }

    /// `path` (a socket file) goes if the watchdog has to end the app; `forget` undoes it.
    package static func removeOnForcedExit(_ path: String) { state.withLock { $0.paths[path, default: 0] += 1 } }
    package static func forget(_ path: String) {
        state.withLock { state in
            state.paths[path, default: 0] -= 1
            if state.paths[path, default: 0] <= 0 { state.paths[path] = nil }
        }
    }

    private static func watch(_ rule: StopSignalRule) {
        var signal: Int32 = 0
        while signal == 0 { signal = readSignal(timeout: -1) ?? 0 }
        let start = monotonicSeconds()
        // The orderly way, on the main loop when it next runs.
        g_idle_add_full(G_PRIORITY_HIGH, { _ in
            let quit = StopSignals.state.withLock { state -> (@MainActor () -> Void)? in
                state.answered = true
                return state.quit
            }
            MainActor.assumeIsolated { quit?() }
            return 0
        }, nil, nil)
        var again = false
        while true {
            let answered = state.withLock { $0.answered }
            switch rule.step(signal: signal, elapsed: monotonicSeconds() - start, answered: answered, again: again) {
            case .wait(let seconds):
                if let next = readSignal(timeout: Int32(min(seconds * 1000, 600_000).rounded(.up))), next != 0 { again = true }
            case .forceExit(let status):
                let paths = state.withLock { Array($0.paths.keys) }
                for path in paths { unlink(path) }
                let why = again ? "a second stop signal came" : (answered ? "the app did not finish ending in time"
                    : "the app did not answer it within \(String(format1: rule.answerGrace)) s (its main thread is blocked, e.g. in a keyring call)")
                let message = "hostshell: ending at once on signal \(signal): \(why)\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                _exit(status)
            }
        }
    }

    /// The next signal number written to the pipe, nil when `timeout` (ms, -1: none) passes.
    private static func readSignal(timeout: Int32) -> Int32? {
        var poller = pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout) > 0 else { return nil }
        var byte: UInt8 = 0
        return read(pipeRead, &byte, 1) == 1 ? Int32(byte) : nil
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
