/// Why a notification setting was not changed, with what to do. The words are the same
/// whichever door (the `vaultmail` tool, the web app) the change came by.
public enum NotificationSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Switching on was refused by the notification server (AC-N-02, E-19): nothing changed.
    case permissionRefused(String)
    /// Not an address a VIP can be.
    case invalidVIP(String, reason: String)
    case notVIP(String)
    /// No stored conversation has the id.
    case noSuchConversation(String)
    case notMuted(String)
    case notSaved(String)
    case unknownCategory(String, known: [String])
    /// Not a time of day as `HH:MM`.
    case invalidQuietHours(String)
    /// Quiet hours that start when they end.
    case emptyQuietHours
    /// Not a conversation marked "notify me".
    case notWatched(String)
    /// Not one of the privacy levels of notifications.
    case unknownContentLevel(String)
    /// Not a server name an `Authentication-Results` field can carry.
    case invalidAuthservId(String)
    /// No account has that name.
    case noSuchAccount(String)

    public var description: String {
        switch self {
        case .permissionRefused(let reason):
            "VaultMail may not show notifications (\(reason)), so they stay off. Start the desktop's notification server "
                + "(or one such as dunst or mako) and switch them on again."
        case .invalidVIP(let address, let reason):
            "'\(address)' cannot be a VIP: \(reason). Give the sender's email address, such as ada@example.com."
        case .notVIP(let address):
            "\(address) is not a VIP."
        case .noSuchConversation:
            PlainWords.threadGone
        case .notMuted:
            "That conversation isn't muted."
        case .notSaved(let reason):
            "The setting could not be saved: \(reason)."
        case .unknownCategory(let name, let known):
            "There is no category '\(name)': the categories are \(known.joined(separator: ", "))."
        case .invalidQuietHours(let text):
            "'\(text)' is not a time of day: write quiet hours as HH:MM in 24-hour time, such as 22:00 and 07:00."
        case .emptyQuietHours:
            "Quiet hours need different start and end times."
        case .notWatched:
            "That conversation isn't marked \u{201C}notify me\u{201D}."
        case .unknownContentLevel(let text):
            "'\(text)' is not what a notification can show: choose full (sender, subject and preview), sender (the sender only) or none (just \u{201C}New mail\u{201D})."
        case .invalidAuthservId(let text):
            "'\(text)' is not a server name: give the name your server writes first in its Authentication-Results header "
                + "(such as mx.example.com; several separated by commas), or auto."
        case .noSuchAccount(let name):
            "There is no account '\(name)'; `vaultmail account list` shows them."
        }
    }

    /// True when the request itself was wrong (the tool exits with its usage status).
    public var isBadInput: Bool {
        switch self {
        case .invalidVIP, .unknownCategory, .invalidQuietHours, .emptyQuietHours, .unknownContentLevel, .invalidAuthservId: true
        case .permissionRefused, .notVIP, .noSuchConversation, .notMuted, .notSaved, .notWatched, .noSuchAccount: false
        }
    }
}
