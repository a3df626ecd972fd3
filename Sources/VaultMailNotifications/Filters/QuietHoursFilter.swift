import VaultMailCore

/// NOTIF-14: no notifications between `quietHoursStart` and `quietHoursEnd`, in minutes since
/// midnight in the clock's time zone. The start is inside the range and the end is not;
/// a range whose end is earlier than its start runs overnight (22:00–07:00). Equal ends
/// make an empty range.
@MainActor
public struct QuietHoursFilter: NotificationFilter {
    public let rule = NotificationRule.quietHours
    private let settings: SettingsStore
    private let clock: any WallClock

    public init(settings: SettingsStore, clock: any WallClock) {
        self.settings = settings
        self.clock = clock
    }

    public func shouldNotify(for email: Email) async -> Bool {
        guard settings.quietHoursEnabled else { return true }
        return !Self.isQuiet(minute: clock.minutesSinceMidnight, start: settings.quietHoursStart, end: settings.quietHoursEnd)
    }

    /// Whether `minute` falls in the quiet range.
    public static func isQuiet(minute: Int, start: Int, end: Int) -> Bool {
        if start < end { return minute >= start && minute < end }
        if start > end { return minute >= start || minute < end }
        return false
    }
}
