import Foundation

/// Reads the dates of `after:`/`before:` (`2024-01-31`, `2024/01/31`) and the ages of
/// `older_than:`/`newer_than:` (`7d`, `2w`, `2m`, `1y`) as instants, in the user's time zone.
struct SearchDates {
    let now: Date
    let calendar: Calendar

    init(now: Date, timeZone: TimeZone) {
        self.now = now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// Local midnight at the start of the day `text` names; nil when it is not a date.
    func startOfDay(_ text: String) -> Date? {
        let parts = text.split(separator: text.contains("/") ? "/" : "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        // Reject days a month lacks (2024-02-30) instead of rolling them over.
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// `now` minus an age such as `7d`; nil when it is not an age.
    func ago(_ text: String) -> Date? {
        guard let unit = text.last, let amount = Int(text.dropLast()), amount >= 0, amount <= 100_000 else { return nil }
        let component: Calendar.Component
        switch unit {
        case "d", "D": component = .day
        case "w", "W": component = .weekOfYear
        case "m", "M": component = .month
        case "y", "Y": component = .year
        default: return nil
        }
        return calendar.date(byAdding: component, value: -amount, to: now)
    }
}
