import Foundation

/// The time of day and the time zone, injected so tests control them. (Not named `Clock`,
/// which would shadow the standard library's protocol.)
public protocol WallClock: Sendable {
    var now: Date { get }
    var timeZone: TimeZone { get }
}

extension WallClock {
    /// Minutes since local midnight in the clock's time zone (NOTIF-14).
    public var minutesSinceMidnight: Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }
}

/// The machine's clock and current time zone.
public struct SystemWallClock: WallClock {
    public init() {}
    public var now: Date { Date() }
    public var timeZone: TimeZone { TimeZone.current }
}
