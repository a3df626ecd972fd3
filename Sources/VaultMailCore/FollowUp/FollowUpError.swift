/// Why a follow-up reminder was not set, in the words both doors show.
public enum FollowUpError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadableDelay(String)
    case noSuchConversation(String)
    /// The conversation has no message of the user's to wait on an answer to.
    case nothingSent
    case notSet
    case notSaved(String)

    public var description: String {
        switch self {
        case .unreadableDelay(let text):
            "'\(text)' is not a length of time: write it as 3d (days), 1w (weeks), 12h (hours) or 30m (minutes)."
        case .noSuchConversation:
            PlainWords.threadGone
        case .nothingSent:
            "You haven't written in that conversation: a reminder waits for an answer to mail you sent."
        case .notSet:
            "That conversation has no reminder."
        case .notSaved(let reason):
            "The reminder could not be saved: \(reason)."
        }
    }
}
