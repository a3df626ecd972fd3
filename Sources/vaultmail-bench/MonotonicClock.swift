import Foundation

/// Seconds on CLOCK_MONOTONIC: the clock Python's `time.monotonic()` reads, so a time taken
/// here and one stamped by the recording notification server can be subtracted.
enum MonotonicClock {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }
}
