/// A conversation as a correction sees it: its account, its emails, who wrote them and the
/// mailing lists they came through. A correction teaches the list of list mail, not each of
/// its posters.
public struct ThreadSenders: Sendable, Hashable {
    public var threadId: String
    public var accountId: String
    public var emailIds: [String]
    /// The distinct sender addresses of its emails that did not come through a mailing list,
    /// lowercased, oldest message first.
    public var senders: [String]
    /// The identifiers of the mailing lists its other emails came through (List-Id, lowercased).
    public var lists: [String]

    public init(threadId: String, accountId: String, emailIds: [String], senders: [String], lists: [String] = []) {
        self.threadId = threadId
        self.accountId = accountId
        self.emailIds = emailIds
        self.senders = senders
        self.lists = lists
    }
}
