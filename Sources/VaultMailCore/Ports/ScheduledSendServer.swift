import Foundation

/// The server half of send later (issue 33, docs/sending.md "Send later"): a scheduled message
/// waits in the account's Drafts folder with its send time as a keyword (`SendAtKeyword`), so
/// other clients see it and any VaultMail on the account sends it; the one that sends it first
/// claims it there. Implemented over IMAP by `IMAPScheduledSendServer` (VaultMailSync).
public protocol ScheduledSendServer: Sendable {
    /// The account's scheduled messages in Drafts (each message carrying a send-time keyword).
    func scheduled(account: Account) async throws -> [ScheduledDraft]
    /// A scheduled message's bytes to send (its Bcc header removed) and what they say; nil when
    /// it is no longer there.
    func content(of draft: ScheduledDraft, account: Account) async throws -> ScheduledDraftContent?
    /// Claims the scheduled copy of `messageId` for sending: on a server with CONDSTORE, in one
    /// conditional store its send-time keyword becomes a lease (`lease` later) and a keyword of
    /// this claim's own, so of two machines exactly one wins. With `requireDue`, only a copy due
    /// at `now` is claimed (the daemon's pass); without (Send now), whatever its time. `key` is
    /// the claim's own keyword (`SendAtKeyword.claimKeyword(for:)`): a claim found with it is this
    /// store's own earlier one (a send that failed and is retried, a run that stopped before
    /// sending), taken again at once instead of waiting for its lease.
    func claim(messageId: String, account: Account, now: Date, lease: TimeInterval, requireDue: Bool, key: String) async throws -> ScheduledSendClaim
    /// Where the copy of `messageId` stands, as `claim` would find it, without claiming it: `.won`
    /// means it is there, scheduled and not claimed.
    func standing(messageId: String, account: Account, now: Date) async throws -> ScheduledSendClaim
    /// The copy of `messageId` in Drafts becomes an ordinary draft: its send-time (and claim)
    /// keywords removed. Nothing to do when it has none or is gone.
    func unschedule(messageId: String, account: Account) async throws
}

/// A message waiting in Drafts to be sent at `sendAt`.
public struct ScheduledDraft: Sendable, Hashable {
    /// Its Message-ID (as `ParsedMessage.stableMessageId` reads it).
    public var messageId: String
    public var sendAt: Date
    public var location: RemoteMessageLocation
    /// It carries a claim's keyword: a VaultMail is sending it (or died doing so; then `sendAt`
    /// is the end of its lease).
    public var isClaimed: Bool

    public init(messageId: String, sendAt: Date, location: RemoteMessageLocation, isClaimed: Bool) {
        self.messageId = messageId
        self.sendAt = sendAt
        self.location = location
        self.isClaimed = isClaimed
    }
}

/// A scheduled message read from Drafts.
public struct ScheduledDraftContent: Sendable {
    /// The bytes to send (the copy without its Bcc header).
    public var raw: [UInt8]
    /// The copy as parsed (its Bcc header included: every recipient).
    public var parsed: ParsedMessage

    public init(raw: [UInt8], parsed: ParsedMessage) {
        self.raw = raw
        self.parsed = parsed
    }
}

/// What claiming a scheduled copy on the server came to.
public enum ScheduledSendClaim: Sendable, Hashable {
    /// This machine holds it: send it.
    case won
    /// The server has no CONDSTORE: no claim is possible; sending goes on (docs: not guaranteed
    /// across machines at the same instant).
    case unclaimable
    /// Another VaultMail claimed it first (or holds its lease).
    case taken(until: Date)
    /// Not due yet on the server (another machine gave it a later time).
    case notDue(Date)
    /// In Drafts without a send time: cancelled by another client or machine.
    case unscheduled
    /// Not in Drafts; `inSent`: its Message-ID is in Sent (sent elsewhere), else it was deleted.
    case gone(inSent: Bool)
}
