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
