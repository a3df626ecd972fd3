/// A conversation as a correction sees it: its account, its emails and who wrote them.
public struct ThreadSenders: Sendable, Hashable {
    public var threadId: String
    public var accountId: String
    public var emailIds: [String]
    /// The distinct sender addresses, lowercased, oldest message first.
    public var senders: [String]

    public init(threadId: String, accountId: String, emailIds: [String], senders: [String]) {
        self.threadId = threadId
        self.accountId = accountId
        self.emailIds = emailIds
        self.senders = senders
    }
}
