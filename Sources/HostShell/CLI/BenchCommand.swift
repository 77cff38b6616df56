import BridgeRuntime

/// `hostshell bench …`: in-process benchmarks; `scripts/bench` runs them on a release build.
enum BenchCommand {
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        throw UsageError("usage: hostshell bench codec [--seconds S]")
    }
}
