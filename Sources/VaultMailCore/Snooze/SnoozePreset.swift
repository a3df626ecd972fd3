import Foundation

/// The times offered with one word, in the user's time zone: this evening (18:00 today, while
/// it is at least an hour away), tomorrow (08:00), next week (Monday 08:00) and someday.
public enum SnoozePreset: String, Sendable, CaseIterable, Hashable {
    case thisEvening = "this-evening"
    case tomorrow
    case nextWeek = "next-week"
    case someday

    /// "This evening", "Tomorrow", "Next week", "Someday".
    public var label: String {
        switch self {
        case .thisEvening: "This evening"
        case .tomorrow: "Tomorrow"
        case .nextWeek: "Next week"
        case .someday: "Someday"
        }
    }

    /// The hour of the day a preset wakes at.
    static let eveningHour = 18
    static let morningHour = 8

    /// The preset a word names: `this-evening`, `this evening`, `evening`, `tomorrow`,
    /// `next-week`, `next week`, `someday` (any case).
    public init?(word: String) {
        let word = word.trimmingCharacters(in: .whitespaces).lowercased()
            .replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: " ", with: "-")
        switch word {
        case "this-evening", "evening", "tonight": self = .thisEvening
        case "tomorrow": self = .tomorrow
        case "next-week": self = .nextWeek
        case "someday", "some-day": self = .someday
        default: return nil
        }
    }

    /// The time this preset means at `now` in `timeZone`; nil for this evening once it is less
    /// than an hour before 18:00.
    public func time(now: Date, timeZone: TimeZone) -> SnoozeTime? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: now)
        func at(_ hour: Int, daysAfter days: Int) -> Date? {
            calendar.date(byAdding: .day, value: days, to: today)
                .flatMap { calendar.date(bySettingHour: hour, minute: 0, second: 0, of: $0) }
        }
        switch self {
        case .someday:
            return .someday
        case .thisEvening:
            guard let evening = at(Self.eveningHour, daysAfter: 0), evening.timeIntervalSince(now) >= 3600 else { return nil }
            return .until(evening)
        case .tomorrow:
            return at(Self.morningHour, daysAfter: 1).map(SnoozeTime.until)
        case .nextWeek:
            // Monday is weekday 2; a Monday goes to the next one.
            let weekday = calendar.component(.weekday, from: today)
            let days = (9 - weekday) % 7 == 0 ? 7 : (9 - weekday) % 7
            return at(Self.morningHour, daysAfter: days).map(SnoozeTime.until)
        }
    }
}
