import Foundation

/// Drafts and the outbox, persisted: every state change of an outgoing message is durable
/// when the call returns, and the changes that race (claiming a message for sending,
/// cancelling it) are atomic compare-and-set operations, so two senders never both send it.
///
/// States: `draft` → `queued` → `sending` → `sent`, or back to `queued` (retry later) or
/// `failed`; `queued`/`failed` → `draft` (cancel); `failed` → `queued` (retry).
public protocol OutboxRepository: Sendable {
    /// Creates or replaces a draft: the email (`sendState = draft`), the content and metadata
    /// of its attachments, and a link to the account's local Drafts folder when there is one.
    /// Throws `ComposeError.wrongState` when the email exists and is not a draft.
    func saveDraft(_ email: Email, attachments: [DraftAttachment]) async throws
    func entry(emailId: String) async throws -> OutboxEntry?
    /// A draft synced from the server's Drafts folder that is not in the outbox (written by
    /// another client); `saveDraft` of the same email id takes it in.
    func syncedDraft(emailId: String) async throws -> Email?
    /// Deletes a draft with its attachments. Throws `ComposeError.wrongState` when the email is
    /// not a draft (a queued message is cancelled first).
    func deleteDraft(emailId: String) async throws
    /// The attachments of a draft, content included, in order.
    func attachments(emailId: String) async throws -> [DraftAttachment]
    /// Drafts, oldest first; every account's when nil.
    func drafts(accountId: String?) async throws -> [OutboxEntry]
    /// Queued, sending and failed messages, oldest first; every account's when nil.
    func outbox(accountId: String?) async throws -> [OutboxEntry]
    /// Where the draft's server copy is now, or why saving it there failed.
    func recordRemoteDraft(emailId: String, location: RemoteMessageLocation?, error: String?) async throws

    /// `draft` or `failed` → `queued` with the bytes to send. The message may go out from
    /// `notBefore` on. Throws `ComposeError.wrongState` from any other state.
    func queue(emailId: String, rawMessage: [UInt8], notBefore: Date, now: Date) async throws
    /// `queue`, and the time the person chose for it (send later, issue 33; nil: sent now),
    /// kept apart from the retry time. `returnToDraft` forgets it.
    func queue(emailId: String, rawMessage: [UInt8], notBefore: Date, now: Date, sendAt: Date?) async throws
    /// A scheduled message still queued goes at `sendAt` instead (another machine moved its time).
    func moveSendTime(emailId: String, to sendAt: Date) async throws
    /// `queued` or `failed` → `draft` (undo, cancel). Returns nil when done, else the state
    /// that made it impossible (`sending`, `sent`).
    func returnToDraft(emailId: String) async throws -> SendState?
    /// `queued` → `sending`, claimed by `runId` until `leaseUntil` (kept in `nextAttemptAt`),
    /// when the message is queued and due at `now` (or `ignoringSchedule`). Nil when it is not
    /// (someone else claimed it first).
    func claim(
        emailId: String, runId: String, now: Date, ignoringSchedule: Bool, leaseUntil: Date
    ) async throws -> OutboxEntry?
    /// The message content is about to go to the server.
    func markDataStarted(emailId: String, at date: Date) async throws
    /// The server accepted the message: `sent`, with filing (Sent copy, Drafts clean-up) pending.
    func markTransmitted(emailId: String, at date: Date) async throws
    /// Filing is done: the local links move from Drafts to Sent (with the copy's UID).
    func markFiled(emailId: String, sentCopy: RemoteMessageLocation?) async throws
    func recordFilingError(emailId: String, error: String) async throws
    /// `sending` → `queued`: one more failed attempt, why, and when to try again.
    func markRetry(emailId: String, reason: String, nextAttemptAt: Date) async throws
    /// → `failed`: one more failed attempt and why; the user decides what next.
    func markFailed(emailId: String, reason: String) async throws

    /// Queued messages due at `now`, oldest first.
    func dueEntries(now: Date) async throws -> [OutboxEntry]
    /// `sending` messages claimed by a run other than `currentRunId` whose claim expired at
    /// `now`: interrupted by a crash or a restart. (A claim of another live process — the
    /// command-line tool beside the daemon — is left alone until its lease is over.) A claim
    /// of a run whose id starts with `endedRunPrefix` counts as interrupted whatever its lease:
    /// the daemon's runs, of which only one lives at a time (`OutboxSender.daemonRunPrefix`).
    func interruptedEntries(currentRunId: String, now: Date, endedRunPrefix: String?) async throws -> [OutboxEntry]
    /// Sent messages whose filing is still pending.
    func pendingFilings() async throws -> [OutboxEntry]
    /// The earliest `nextAttemptAt` of a queued message or of a claim that will expire.
    func nextAttemptDate() async throws -> Date?
    /// Makes every queued message due at `now` (the network is back).
    func makeQueuedDue(now: Date) async throws
}
