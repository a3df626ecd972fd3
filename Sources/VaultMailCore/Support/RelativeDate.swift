import Foundation

/// AC-U-03's timestamps: "3:42 PM" today, "Yesterday", "Tue" within the week, "Jan 15" this
/// year, "1/15/24" before. With a `locale` (the web app passes the browser's), each is written
/// the way that locale writes it: "15:42", "Gestern", "Di.", "15. Jan.", "15.01.24".
public struct RelativeDate: Sendable {
    /// The fixed US English forms above (the tool's, and its tests').
    public static let fixedLocale = Locale(identifier: "en_US_POSIX")

    private let calendar: Calendar
    private let now: Date

    public init(now: Date, timeZone: TimeZone, locale: Locale = Self.fixedLocale) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = locale
        self.calendar = calendar
        self.now = now
    }

    private var isFixed: Bool { calendar.locale?.identifier == Self.fixedLocale.identifier }

    /// The whole date and time, "Tue, Nov 24, 2026 at 3:42 PM", for a message's header.
    public func full(_ date: Date) -> String {
        if isFixed { return DateFormatterCache.shared.string(from: date, style: .pattern("EEE, MMM d, yyyy 'at' h:mm a"), calendar: calendar) }
        return DateFormatterCache.shared.string(from: date, style: .template("EEEMMMdyjmm"), calendar: calendar)
    }

    /// When a snoozed conversation comes back (issue 33): the weekday and the time within the
    /// coming week ("Tue 8:00 AM", "Di. 08:00"), with the day and month further off ("Tue, Dec 8, 8:00 AM").
    public func wakeTime(_ date: Date) -> String {
        let soon = date.timeIntervalSince(now) < 6 * 86400
        if isFixed { return DateFormatterCache.shared.string(from: date, style: .pattern(soon ? "EEE h:mm a" : "EEE, MMM d, h:mm a"), calendar: calendar) }
        return DateFormatterCache.shared.string(from: date, style: .template(soon ? "EEEjmm" : "EEEMMMdjmm"), calendar: calendar)
    }

    public func string(for date: Date) -> String {
        let startOfToday = calendar.startOfDay(for: now)
        let kind: DateFormatterCache.Style
        if date >= startOfToday {
            kind = isFixed ? .pattern("h:mm a") : .template("jmm")
        } else if let yesterday = calendar.date(byAdding: .day, value: -1, to: startOfToday), date >= yesterday {
            return isFixed ? "Yesterday" : DateFormatterCache.shared.yesterday(in: calendar.locale ?? Self.fixedLocale)
        } else if let weekAgo = calendar.date(byAdding: .day, value: -6, to: startOfToday), date >= weekAgo {
            kind = isFixed ? .pattern("EEE") : .template("EEE")
        } else if calendar.component(.year, from: date) == calendar.component(.year, from: now) {
            kind = isFixed ? .pattern("MMM d") : .template("MMMd")
        } else {
            kind = isFixed ? .pattern("M/d/yy") : .full(date: .short, time: .none)
        }
        return DateFormatterCache.shared.string(from: date, style: kind, calendar: calendar)
    }

    /// The heading of the group of the list `date` falls in, newest first (issue 29): "Today",
    /// "Yesterday", "This week", "Last week", "Earlier this month", then the month ("October",
    /// "October 2025" in another year). Weeks start on the locale's first weekday. Each group
    /// begins where the one before ends, so a list sorted newest first shows each heading once
    /// (a group that would be empty, "This week" on its first day, never shows). In another
    /// language the locale's own words: "Heute", "Gestern", "Diese Woche", "Letzte Woche",
    /// "Diesen Monat", "Oktober"; French "Cette semaine", "Ce mois-ci".
    public func heading(for date: Date) -> String {
        let today = calendar.startOfDay(for: now)
        let yesterday = calendar.date(byAdding: .day, value: -1, to: today) ?? today
        let week = calendar.dateInterval(of: .weekOfYear, for: now)?.start ?? today
        let lastWeek = calendar.date(byAdding: .day, value: -7, to: week) ?? week
        let month = calendar.dateInterval(of: .month, for: now)?.start ?? today
        let locale = calendar.locale ?? Self.fixedLocale
        let english = isFixed || locale.language.languageCode?.identifier == "en"
        let named = { (group: DateFormatterCache.Group) in english ? group.english : DateFormatterCache.shared.named(group, in: locale) }
        if date >= today { return named(.today) }
        if date >= yesterday { return named(.yesterday) }
        if date >= week { return named(.thisWeek) }
        if date >= lastWeek { return named(.lastWeek) }
        if date >= month { return named(.thisMonth) }
        let sameYear = calendar.component(.year, from: date) == calendar.component(.year, from: now)
        let style: DateFormatterCache.Style = isFixed ? .pattern(sameYear ? "MMMM" : "MMMM yyyy") : .template(sameYear ? "MMMM" : "MMMMy")
        return DateFormatterCache.shared.string(from: date, style: style, calendar: calendar)
    }
}

/// Date formatters are costly to make (a tenth of a millisecond each) and cheap to use: one
/// per format and time zone, kept for the process.
final class DateFormatterCache: @unchecked Sendable {  // every use of `formatters` holds `lock`
    static let shared = DateFormatterCache()
    private let lock = NSLock()
    private var formatters: [String: DateFormatter] = [:]
    private var names: [String: String] = [:]  // named groups, by group and locale

    /// The locale's word for yesterday, capitalized as a label ("Gestern", "Hier", "昨日").
    func yesterday(in locale: Locale) -> String { named(.yesterday, in: locale) }

    /// A date heading's group (`RelativeDate.heading(for:)`), and its English words.
    enum Group: String {
        case today, yesterday, thisWeek, lastWeek, thisMonth

        var english: String {
            switch self {
            case .today: "Today"
            case .yesterday: "Yesterday"
            case .thisWeek: "This week"
            case .lastWeek: "Last week"
            case .thisMonth: "Earlier this month"
            }
        }

        /// The field ICU names, and a time that far back that it names this group.
        fileprivate var field: (Date.RelativeFormatStyle.Field, TimeInterval) {
            switch self {
            case .today: (.day, -60)
            case .yesterday: (.day, -86_400 - 60)
            case .thisWeek: (.week, -60)
            case .lastWeek: (.week, -8 * 86_400)
            case .thisMonth: (.month, -60)
            }
        }
    }

    /// A group's name in `locale`, capitalized as a label ("Gestern", "Letzte Woche"): ICU's
    /// named relative day, week or month (DateFormatter's relative formatting is not
    /// implemented on Linux).
    func named(_ group: Group, in locale: Locale) -> String {
        lock.withLock {
            let key = "\(group.rawValue)|\(locale.identifier)"
            if let word = names[key] { return word }
            var style = Date.RelativeFormatStyle(presentation: .named, unitsStyle: .wide, locale: locale, capitalizationContext: .beginningOfSentence)
            let (field, offset) = group.field
            style.allowedFields = [field]
            let word = style.format(Date.now.addingTimeInterval(offset))
            names[key] = word
            return word
        }
    }

    /// How a date is written: a fixed pattern, a locale's form of a template's fields, or a
    /// locale's date and time styles.
    enum Style: Hashable {
        case pattern(String)
        case template(String)
        case full(date: DateFormatter.Style, time: DateFormatter.Style)
    }

    func string(from date: Date, style: Style, calendar: Calendar) -> String {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(calendar.timeZone.identifier)|\(calendar.locale?.identifier ?? "")|\(style)"
        if let formatter = formatters[key] { return formatter.string(from: date) }
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = calendar.locale
        switch style {
        case .pattern(let format): formatter.dateFormat = format
        case .template(let template): formatter.setLocalizedDateFormatFromTemplate(template)
        case .full(let dateStyle, let timeStyle): (formatter.dateStyle, formatter.timeStyle) = (dateStyle, timeStyle)
        }
        formatters[key] = formatter
        return formatter.string(from: date)
    }
}
