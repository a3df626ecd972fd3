/// What `IMAPConnection.deleteMessages(uids:)` did to the messages.
public enum IMAPDeletion: Sendable, Hashable {
    /// Flagged `\Deleted` and removed for good with UID EXPUNGE (UIDPLUS).
    case expunged
    /// Flagged `\Deleted` only: the server has no UIDPLUS, and its mailbox-wide EXPUNGE would
    /// also remove messages other clients flagged `\Deleted` (and may still want to undelete).
    /// They stay, hidden by most clients, until some client expunges the mailbox.
    case flaggedOnly
}
