import Foundation

/// Why a snooze or un-snooze was refused, with what to do.
public enum SnoozeError: Error, Sendable, Equatable, CustomStringConvertible, PlainWordsError {
    /// The text is no preset and no date and time VaultMail reads.
    case unreadableTime(String)
    /// The time has passed (or is this very minute).
    case inThePast(time: String, now: String)
    /// "This evening" once it is less than an hour before 18:00.
    case eveningPassed
    /// The conversation is not snoozed (un-snooze).
    case notSnoozed
    /// None of the conversation's messages is in a folder it could leave (only in Sent, Drafts,
    /// Trash or Junk, or not synced yet).
    case nothingToSnooze
    /// No stored conversation with this id.
    case notFound(id: String)
    /// Snoozing was asked of `Conversations`, which does not carry it out (`Snooze` does).
    case notHere

    public var description: String {
        switch self {
        case .unreadableTime(let text):
            "'\(text.prefix(80))' is not a time VaultMail reads: give this-evening, tomorrow, next-week, someday, "
                + "or a date and time such as 2026-12-01 09:00 (your local time) or 2026-12-01T09:00:00+01:00"
        case .inThePast(let time, let now):
            "\(time) has already passed (it is \(now) now): give a later time"
        case .eveningPassed:
            "it is too late for this evening (VaultMail's evening starts at 18:00): choose tomorrow, next week or a time"
        case .notSnoozed:
            "that conversation isn't snoozed"
        case .nothingToSnooze:
            "that conversation has nothing to snooze: its messages are only in Sent, Drafts, Trash or Junk, or not synced yet"
        case .notHere:
            "snoozing goes through Snooze, which keeps the time on the server"
        case .notFound(let id):
            "no conversation with id \(id); `vaultmail threads` lists them"
        }
    }

    public var plainWords: String {
        switch self {
        case .notFound: PlainWords.threadGone
        default: description.prefix(1).uppercased() + description.dropFirst() + "."
        }
    }
}
