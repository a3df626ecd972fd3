/// What can be done to conversations from any face: the actions `ManageThreadActionsUseCase`
/// carries out, server first.
public enum ConversationAction: Sendable, Hashable {
    case read, unread, star, unstar, archive, delete
    case move(toFolderId: String)
    /// Issue 33: out of the inbox into the Snoozed folder until the time (`Snooze`; here only as
    /// a change kept for the server, `PendingChanges`).
    case snooze(until: SnoozeTime)
    /// Back from the Snoozed folder to the inbox (likewise).
    case unsnooze

    /// Whether the conversation's desktop notification goes once the action succeeded: it
    /// was read, or it left the inbox (NOTIF-18, AC-N-11).
    public var withdrawsNotification: Bool {
        switch self {
        case .read, .archive, .delete, .move, .snooze: true
        case .unread, .star, .unstar, .unsnooze: false
        }
    }
}
