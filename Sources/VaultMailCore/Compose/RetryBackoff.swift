import Foundation

/// How long a message that could not be sent waits before the next attempt: `initial`
/// after the first failure, multiplied by `multiplier` after each further one, at most
/// `maximum` (E-12, AC-P-04).
public struct RetryBackoff: Sendable, Hashable {
    public var initial: TimeInterval
    public var multiplier: Double
    public var maximum: TimeInterval

    public init(initial: TimeInterval = 30, multiplier: Double = 2, maximum: TimeInterval = 30 * 60) {
        self.initial = max(0, initial)
        self.multiplier = max(1, multiplier)
        self.maximum = max(self.initial, maximum)
    }

    /// 30 s, 1 min, 2 min, … up to 30 min.
    public static let standard = RetryBackoff()

    /// The wait after `failures` failed attempts (1 or more).
    public func delay(afterFailures failures: Int) -> TimeInterval {
        let exponent = Double(max(0, failures - 1))
        return min(maximum, initial * pow(multiplier, min(exponent, 64)))
    }
}
