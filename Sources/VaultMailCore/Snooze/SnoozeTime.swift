import Foundation

/// When a snoozed conversation comes back to the inbox: at a time, or "someday" (only when the
/// user un-snoozes it). Kept on the IMAP server as a keyword on each snoozed message
/// (docs/snooze.md): `$SnoozedUntil-20261201T080000Z` (the time in UTC, to the second) or
/// `$SnoozedSomeday`.
public enum SnoozeTime: Sendable, Hashable, Comparable {
    case until(Date)
    case someday

    /// The wake time; nil for someday.
    public var date: Date? {
        if case .until(let date) = self { return date }
        return nil
    }

    /// Whether it is time to wake (never for someday).
    public func isDue(at now: Date) -> Bool {
        date.map { $0 <= now } ?? false
    }

    /// A timed one before another, someday last.
    public static func < (lhs: SnoozeTime, rhs: SnoozeTime) -> Bool {
        switch (lhs, rhs) {
        case (.until(let a), .until(let b)): a < b
        case (.until, .someday): true
        case (.someday, _): false
        }
    }

    // MARK: The keyword on the server

    /// What every snooze keyword starts with (compared without regard to case, as IMAP does).
    public static let keywordPrefix = "$Snoozed"
    static let untilPrefix = "$SnoozedUntil-"
    static let somedayKeyword = "$SnoozedSomeday"

    /// The IMAP keyword that carries this time on the server.
    public var keyword: String {
        switch self {
        case .someday: Self.somedayKeyword
        case .until(let date): Self.untilPrefix + Self.keywordFormat.string(from: date)
        }
    }

    /// The time a snooze keyword carries; nil for any other flag or keyword.
    public init?(keyword: String) {
        if keyword.caseInsensitiveCompare(Self.somedayKeyword) == .orderedSame {
            self = .someday
            return
        }
        guard keyword.count == Self.untilPrefix.count + 16,
              keyword.prefix(Self.untilPrefix.count).caseInsensitiveCompare(Self.untilPrefix) == .orderedSame,
              let date = Self.keywordFormat.date(from: String(keyword.dropFirst(Self.untilPrefix.count)).uppercased())
        else { return nil }
        self = .until(date)
    }

    /// Whether `flag` is one of the snooze keywords (a stale one is removed with the others).
    public static func isKeyword(_ flag: String) -> Bool {
        flag.count >= keywordPrefix.count
            && flag.prefix(keywordPrefix.count).caseInsensitiveCompare(keywordPrefix) == .orderedSame
            && SnoozeTime(keyword: flag) != nil
    }

    /// The time among a message's flags: the earliest when (wrongly) several; someday when the
    /// message carries none (it was put into the Snoozed mailbox by hand).
    public init(flags: some Sequence<String>) {
        self = flags.compactMap(SnoozeTime.init(keyword:)).min() ?? .someday
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    private static var keywordFormat: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter
    }
}
