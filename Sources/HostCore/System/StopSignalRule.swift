/// What a stop signal (SIGTERM, SIGINT) does to the app: it asks the main loop to quit, so the
/// app ends in order (control socket removed, forgotten profiles deleted, the usual exit status);
/// when the main thread does not answer — blocked in a synchronous call, say a keyring prompt
/// nobody can see — the app ends anyway: a stop signal always stops it (issue 32 item 1).
///
/// The watchdog that carries this out (`StopSignals`, ShellKit) asks `step` after each wake-up.
package struct StopSignalRule: Sendable, Equatable {
    /// How long the main loop has to answer (run the quit) after the signal.
    package var answerGrace: Double
    /// How long an orderly shutdown that has begun (the main loop answered) may take in all.
    package var finishGrace: Double

    package static let standard = StopSignalRule(answerGrace: 3, finishGrace: 30)

    package init(answerGrace: Double, finishGrace: Double) {
        self.answerGrace = answerGrace
        self.finishGrace = max(finishGrace, answerGrace)
    }

    package enum Step: Sendable, Equatable {
        /// Wait this many seconds more (or until another signal), then ask again.
        case wait(seconds: Double)
        /// End the process now, with this status, after removing what must not be left behind.
        case forceExit(status: Int32)
    }

    /// The conventional status of a process ended by `signal`: 128 + its number, as a shell
    /// reports it.
    package static func forcedStatus(_ signal: Int32) -> Int32 { 128 + signal }

    /// `elapsed`: seconds since the first stop signal; `answered`: the main loop ran the quit;
    /// `again`: another stop signal came since (a person pressing Ctrl+C twice insists).
    package func step(signal: Int32, elapsed: Double, answered: Bool, again: Bool) -> Step {
        if again { return .forceExit(status: Self.forcedStatus(signal)) }
        let limit = answered ? finishGrace : answerGrace
        if !(elapsed < limit) { return .forceExit(status: Self.forcedStatus(signal)) }
        return .wait(seconds: limit - elapsed)
    }
}
