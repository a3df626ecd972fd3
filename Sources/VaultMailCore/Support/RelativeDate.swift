import Foundation

/// AC-U-03's timestamps: "3:42 PM" today, "Yesterday", "Tue" within the week, "Jan 15" this
/// year, "1/15/24" before.
public struct RelativeDate: Sendable {
    private let calendar: Calendar
    private let now: Date

    public init(now: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        self.calendar = calendar
        self.now = now
    }

    /// The whole date and time, "Tue, Nov 24, 2026 at 3:42 PM", for a message's header.
    public func full(_ date: Date) -> String {
        DateFormatterCache.shared.string(from: date, format: "EEE, MMM d, yyyy 'at' h:mm a", calendar: calendar)
    }

    public func string(for date: Date) -> String {
        let startOfToday = calendar.startOfDay(for: now)
        let format: String
        if date >= startOfToday {
            format = "h:mm a"
        } else if let yesterday = calendar.date(byAdding: .day, value: -1, to: startOfToday), date >= yesterday {
            return "Yesterday"
        } else if let weekAgo = calendar.date(byAdding: .day, value: -6, to: startOfToday), date >= weekAgo {
            format = "EEE"
        } else if calendar.component(.year, from: date) == calendar.component(.year, from: now) {
            format = "MMM d"
        } else {
            format = "M/d/yy"
        }
        return DateFormatterCache.shared.string(from: date, format: format, calendar: calendar)
    }
}

/// Date formatters are costly to make (a tenth of a millisecond each) and cheap to use: one
/// per format and time zone, kept for the process.
final class DateFormatterCache: @unchecked Sendable {  // every use of `formatters` holds `lock`
    static let shared = DateFormatterCache()
    private let lock = NSLock()
    private var formatters: [String: DateFormatter] = [:]

    func string(from date: Date, format: String, calendar: Calendar) -> String {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(calendar.timeZone.identifier)|\(format)"
        if let formatter = formatters[key] { return formatter.string(from: date) }
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = calendar.locale
        formatter.dateFormat = format
        formatters[key] = formatter
        return formatter.string(from: date)
    }
}
