import Foundation

/// A draft or outgoing message with everything the outbox keeps about it, so a restart
/// neither loses it nor sends it twice (AC-U-05, E-08, E-12).
public struct OutboxEntry: Sendable, Hashable {
    /// The message: recipients, subject, body and `sendState`.
    public var email: Email
    /// Send attempts that failed so far.
    public var attemptCount: Int
    /// Why the last attempt failed, in words for the user.
    public var lastError: String?
    /// When a queued message may go out (end of the undo delay, or the next retry); for a
    /// `sending` message, when its claim expires.
    public var nextAttemptAt: Date?
    public var queuedAt: Date?
    /// The exact bytes that are sent (built when the message was queued), so every attempt
    /// sends the same message with the same Message-ID and Date.
    public var rawMessage: [UInt8]?
    /// The run (process) that marked the message `sending`: one from an earlier run means
    /// that run stopped mid-send.
    public var claimedBy: String?
    /// Set just before the message content went to the server: from then on it may have
    /// been delivered.
    public var dataStartedAt: Date?
    /// Set when the server accepted the message: it is sent, whatever happens next.
    public var transmittedAt: Date?
    /// The draft's copy in the server's Drafts folder.
    public var remoteDraft: RemoteMessageLocation?
    /// Why the draft could not be saved to the server's Drafts folder (it is saved locally).
    public var draftSyncError: String?
    /// Sent, but the copy in Sent or the removal from Drafts is still to be done.
    public var filingPending: Bool
    /// Why filing failed last time.
    public var filingError: String?
    /// Where the copy in Sent landed.
    public var sentCopy: RemoteMessageLocation?
    /// Send later (issue 33): the time the person chose, kept apart from `nextAttemptAt` (the end
    /// of the undo delay, a retry, a claim's lease), so a scheduled message is told from one in
    /// its undo-send window. Nil for a message sent now.
    public var sendAt: Date?
    /// Send later: what this store's claim keyword on the server ends with (random, chosen when
    /// the message was queued here), so a retry or a restarted run knows its own claim and no other
    /// store takes it for its own (`SendAtKeyword.claimKeyword(for:)`).
    public var serverClaimKey: String?

    public init(
        email: Email, attemptCount: Int = 0, lastError: String? = nil, nextAttemptAt: Date? = nil,
        queuedAt: Date? = nil, rawMessage: [UInt8]? = nil, claimedBy: String? = nil, dataStartedAt: Date? = nil,
        transmittedAt: Date? = nil, remoteDraft: RemoteMessageLocation? = nil, draftSyncError: String? = nil,
        filingPending: Bool = false, filingError: String? = nil, sentCopy: RemoteMessageLocation? = nil,
        sendAt: Date? = nil, serverClaimKey: String? = nil
    ) {
        self.email = email
        self.attemptCount = attemptCount
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
        self.queuedAt = queuedAt
        self.rawMessage = rawMessage
        self.claimedBy = claimedBy
        self.dataStartedAt = dataStartedAt
        self.transmittedAt = transmittedAt
        self.remoteDraft = remoteDraft
        self.draftSyncError = draftSyncError
        self.filingPending = filingPending
        self.filingError = filingError
        self.sentCopy = sentCopy
        self.sendAt = sendAt
        self.serverClaimKey = serverClaimKey
    }

    public var id: String { email.id }
    public var state: SendState { email.sendState }

    /// Send later (issue 33): when a scheduled message goes, while it is queued for a time
    /// after `now`; nil for anything else (sent now, in its undo-send window, sending, failed,
    /// waiting to retry, due).
    public func sendsLater(now: Date) -> Date? {
        guard state == .queued, let at = sendAt, at > now else { return nil }
        return at
    }

    /// A scheduled message (`sendAt` set) still waiting in the outbox: queued and not yet tried,
    /// whether or not its time has come.
    public var isScheduled: Bool { sendAt != nil && (state == .queued || state == .sending) }
}
