import Foundation

/// A conversation under Snoozed, and when it comes back.
public struct SnoozedConversation: Sendable, Hashable {
    public var threadId: String
    public var accountId: String
    public var subject: String
    /// The latest sender's name or address.
    public var from: String
    public var time: SnoozeTime

    public init(threadId: String, accountId: String, subject: String, from: String, time: SnoozeTime) {
        self.threadId = threadId
        self.accountId = accountId
        self.subject = subject
        self.from = from
        self.time = time
    }
}

/// Messages that came back from Snoozed, moved to the inbox by this process (exactly once).
public struct WokenMail: Sendable, Hashable {
    public var accountId: String
    /// The stored emails moved back (those the store knows).
    public var emailIds: [String]
    /// When each of them was snoozed until.
    public var snoozedUntil: [String: Date]

    public init(accountId: String, emailIds: [String], snoozedUntil: [String: Date]) {
        self.accountId = accountId
        self.emailIds = emailIds
        self.snoozedUntil = snoozedUntil
    }
}
