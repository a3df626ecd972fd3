import Foundation

/// What a desktop notification shows of a new mail (issue 33), for screens others can see.
public enum NotificationContentLevel: String, Sendable, CaseIterable, Codable {
    /// The sender, the subject and the opening words (the default).
    case full
    /// The sender only: "New message" under the name.
    case sender
    /// Nothing about the mail: "New mail" and the account.
    case none

    /// The words of a setting's value, for both doors.
    public var label: String {
        switch self {
        case .full: "Sender, subject and preview"
        case .sender: "Sender only"
        case .none: "Nothing (just \u{201C}New mail\u{201D})"
        }
    }

    /// Reads `full`, `sender` or `none` (also `sender-only`, `nothing`, `hidden`).
    public init?(words: String) {
        switch words.trimmingCharacters(in: .whitespaces).lowercased() {
        case "full", "all", "sender-and-subject": self = .full
        case "sender", "sender-only": self = .sender
        case "none", "nothing", "hidden": self = .none
        default: return nil
        }
    }
}
