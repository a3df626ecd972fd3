import Foundation
import VaultMailCore

/// A wall clock tests set by hand. Thread-safe: the time sits behind a lock.
public final class FixedClock: WallClock, @unchecked Sendable {
    // @unchecked: `current` is only touched under `lock`.
    private let lock = NSLock()
    private var current: Date
    public let timeZone: TimeZone

    public init(_ date: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        self.current = date
        self.timeZone = timeZone
    }

    /// A clock at `hour:minute` on 2026-01-15 in `timeZone`.
    public convenience init(hour: Int, minute: Int, timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = calendar.date(from: DateComponents(year: 2026, month: 1, day: 15, hour: hour, minute: minute))!
        self.init(date, timeZone: timeZone)
    }

    public var now: Date {
        lock.withLock { current }
    }

    public func set(_ date: Date) {
        lock.withLock { current = date }
    }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}
