import Foundation

/// The server half of snoozing (`Snooze`): the state lives on the user's IMAP server, in a
/// Snoozed mailbox with a keyword carrying the wake time on each message (docs/snooze.md), so
/// other clients and devices agree. Implemented over IMAP by `IMAPSnoozeServer`; each call
/// changes the server first, then the store.
public protocol SnoozeServer: Sendable {
    /// Moves the conversation's messages (from the inbox and the user's other folders, not Sent,
    /// Drafts, Trash or Junk) into the account's Snoozed mailbox, created when it has none, each
    /// carrying `time`'s keyword (and no other snooze keyword). A conversation already snoozed
    /// gets the new time.
    func snooze(threadId: String, until time: SnoozeTime) async throws
    /// Moves the conversation's snoozed messages back to the inbox, their keyword removed.
    /// Throws `SnoozeError.notSnoozed` when none of them is in the Snoozed mailbox.
    func unsnooze(threadId: String) async throws
    /// Reads the account's Snoozed mailbox on the server (what is in it, each message's
    /// keyword) into the store, which then lists exactly that: a message another client moved
    /// out is no longer snoozed, one it snoozed is.
    func refresh(accountId: String) async throws
    /// Wakes the account's messages due at `now`: those still in the Snoozed mailbox on the
    /// server with a time not after `now` get `\Seen` and their keyword removed and move to
    /// the inbox. Returns the stored emails this call moved (the server's COPYUID answer says
    /// which): a message another client or daemon woke or moved meanwhile is not among them,
    /// so each wake is announced once.
    func wake(accountId: String, now: Date) async throws -> WokenMail
}
