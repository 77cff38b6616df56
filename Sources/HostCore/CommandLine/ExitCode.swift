/// Exit codes shared by every subcommand.
package enum ExitCode {
    package static let success: Int32 = 0
    /// The command ran and found failures (a failing case, a step that did not do what it should).
    package static let failure: Int32 = 1
    /// Bad input: unknown command, bad arguments, a file that is not what it should be.
    package static let usage: Int32 = 2
}

/// A mistake in how the command was called or in what it was given; printed as one clear line.
package struct UsageError: Error {
    package let message: String
    package init(_ message: String) { self.message = message }
}
