extension Duration {
    /// Whole milliseconds, rounded up.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }

    /// Whole seconds, rounded up, at least one (libetpan's timeouts are in seconds; 0 would mean
    /// its global default).
    var wholeSecondsAtLeastOne: Int {
        let (seconds, attoseconds) = components
        return Swift.max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }
}
