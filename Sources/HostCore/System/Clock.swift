import Glibc

/// Seconds on the monotonic clock: for durations and deadlines, never for dates.
package func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Seconds since 1970 (UTC): for credential expiry, which servers state as wall-clock times.
package func wallClockSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
