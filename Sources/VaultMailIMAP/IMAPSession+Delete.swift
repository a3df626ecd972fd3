import Foundation

/// The one way messages are deleted on the server (issue 18): deleting from Trash, replacing
/// or removing a copy in Drafts or Sent, and the COPY fallback of a move all come here.
extension IMAPSession {
    /// Flags `uids` of the selected mailbox `\Deleted`, then removes exactly them with UID
    /// EXPUNGE when the server has UIDPLUS. Without UIDPLUS they are only flagged: a plain
    /// EXPUNGE is mailbox-wide and would also remove messages another client flagged
    /// `\Deleted` (its "mark as deleted", undoable there until it expunges), so VaultMail never
    /// sends one. The result says which happened.
    @discardableResult
    func deleteMessages(_ uids: UIDSet) throws(IMAPError) -> IMAPDeletion {
        _ = try selectedSession("delete messages from")
        if uids.isEmpty { return capabilities.uidPlus ? .expunged : .flaggedOnly }
        try storeFlags([.deleted], .add, uids: uids)
        guard capabilities.uidPlus else { return .flaggedOnly }
        try expunge(uids)
        return .expunged
    }
}
