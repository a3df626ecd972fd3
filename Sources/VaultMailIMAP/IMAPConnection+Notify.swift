import Foundation

/// STATUS and NOTIFY (RFC 5465): how a client learns about mailboxes it has not selected.
extension IMAPConnection {
    /// The NOTIFY that keeps the selected mailbox reporting as under plain IDLE and makes every
    /// other mailbox of the user's own namespace report new mail, expunges and flag changes as
    /// untagged STATUS.
    public static let notifyMailboxChangesArguments =
        "(selected (MessageNew MessageExpunge FlagChange)) (personal (MessageNew MessageExpunge FlagChange))"

    /// STATUS of `mailbox`: MESSAGES, UIDNEXT and UIDVALIDITY, with HIGHESTMODSEQ when the
    /// server has CONDSTORE (which changes with every flag change too) and UNSEEN otherwise.
    /// One round trip; the cheap way to tell whether a mailbox changed since it was last
    /// synced. Asking about the selected mailbox unselects it first (UNSELECT; NOOP without
    /// it), since servers answer that from the session's lagging view.
    public func status(_ mailbox: String) throws -> IMAPStatusResponse {
        let items = ["MESSAGES", "UIDNEXT", "UIDVALIDITY"] + (session.capabilities.condstore ? ["HIGHESTMODSEQ"] : ["UNSEEN"])
        return try session.status(mailbox, items: items)
    }

    /// `NOTIFY SET` (RFC 5465) with `notifyMailboxChangesArguments`: from now on, also outside
    /// IDLE, the selected mailbox reports as before and any other mailbox of the user that
    /// gains or loses a message or changes flags is announced as `.mailboxStatus` (by `idle` and
    /// `noop`). `.unsupported` when the server has no NOTIFY; a server that
    /// refuses the request answers `.commandFailed`. Select the mailbox to watch first or after.
    public func notifyMailboxChanges() throws {
        try session.notifySet(Self.notifyMailboxChangesArguments)
    }

    /// `NOTIFY NONE`: back to plain IDLE reporting (the selected mailbox only).
    public func notifyNone() throws {
        try session.notifyNone()
    }
}
