/// What handling a notification response did, so the caller can report it.
public enum NotificationActionOutcome: Sendable, Equatable {
    case openedThread(threadId: String)
    case markedRead(threadId: String)
    case archived(threadId: String)
    case deleted(threadId: String)
    case replied(draftId: String)
    /// The centre could not take text: the user wants to write the reply in full.
    case composeRequested(emailId: String)
    case dismissed
    /// The action failed and changed nothing; `message` says what and what to do.
    case failed(action: String, message: String)
}
