import Foundation

/// One sender of bulk mail in the Subscriptions view.
public struct Subscription: Sendable, Hashable {
    public var accountId: String
    /// `ListHeaders.senderKey`.
    public var senderKey: String
    public var senderName: String?
    public var senderAddress: String
    public var listId: String?
    /// Messages received since the recent date (30 days) and since the window's start (90 days).
    public var recentCount: Int
    public var count: Int
    /// When the newest message the person has read arrived; nil when none was read.
    public var lastRead: Date?
    /// The newest message: the one unsubscribing acts on.
    public var latestEmailId: String
    public var latestDate: Date
    public var headers: ListHeaders
    /// When the person unsubscribed; nil when never.
    public var unsubscribedAt: Date?
    /// Messages that arrived after the person unsubscribed (a sender that did not stop).
    public var sinceUnsubscribed: Int

    public init(
        accountId: String, senderKey: String, senderName: String?, senderAddress: String, listId: String?, recentCount: Int,
        count: Int, lastRead: Date?, latestEmailId: String, latestDate: Date, headers: ListHeaders, unsubscribedAt: Date?,
        sinceUnsubscribed: Int = 0
    ) {
        self.accountId = accountId
        self.senderKey = senderKey
        self.senderName = senderName
        self.senderAddress = senderAddress
        self.listId = listId
        self.recentCount = recentCount
        self.count = count
        self.lastRead = lastRead
        self.latestEmailId = latestEmailId
        self.latestDate = latestDate
        self.headers = headers
        self.unsubscribedAt = unsubscribedAt
        self.sinceUnsubscribed = sinceUnsubscribed
    }

    /// The name shown (`ListHeaders.name`).
    public var displayName: String { headers.name(senderName: senderName, senderAddress: senderAddress) }
    /// How unsubscribing from it would work.
    public var method: UnsubscribeMethod { headers.method }
}
