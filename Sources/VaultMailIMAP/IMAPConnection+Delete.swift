import Foundation

extension IMAPConnection {
    /// Deletes messages of the selected mailbox for good: `\Deleted`, then UID EXPUNGE of
    /// exactly these UIDs (UIDPLUS). Without UIDPLUS they are flagged `\Deleted` only and the
    /// result is `.flaggedOnly`: VaultMail never sends the mailbox-wide EXPUNGE, which would
    /// also remove what other clients flagged. The one way VaultMail deletes (see docs/imap.md).
    @discardableResult
    public func deleteMessages(uids: UIDSet) throws -> IMAPDeletion {
        try session.deleteMessages(uids)
    }
}
