import Foundation

/// The list headers kept with each received email, and which senders the person unsubscribed
/// from (issue 33). `GRDBSubscriptionRepository` in the store.
public protocol SubscriptionRepository: Sendable {
    /// The email's List-Id / List-Unsubscribe / List-Unsubscribe-Post; nil when it had none.
    func listHeaders(emailId: String) async throws -> ListHeaders?
    /// Every sender of bulk mail (an email with List-Unsubscribe or List-Id) received since
    /// `since`, newest mail first; `recentSince` splits off the recent count.
    func subscriptions(since: Date, recentSince: Date) async throws -> [Subscription]
    /// Remembers that the person unsubscribed from `senderKey` of `accountId` (replacing an earlier record).
    func recordUnsubscription(_ record: Unsubscription) async throws
    /// The record for this sender, nil when the person never unsubscribed.
    func unsubscription(accountId: String, senderKey: String) async throws -> Unsubscription?
}

/// The list headers of one email, as written (unfolded).
public struct ListHeaders: Sendable, Hashable {
    /// The List-Id's identifier, lowercased ("news.example.com"), nil without one.
    public var listId: String?
    /// The List-Id's name, the words before its identifier ("Example News"), nil without one
    /// (or when it is encoded, `=?…?=`).
    public var listName: String?
    public var listUnsubscribe: String?
    public var listUnsubscribePost: String?

    public init(listId: String?, listName: String? = nil, listUnsubscribe: String?, listUnsubscribePost: String?) {
        self.listId = listId
        self.listName = listName
        self.listUnsubscribe = listUnsubscribe
        self.listUnsubscribePost = listUnsubscribePost
    }

    /// The name of a List-Id value: what comes before `<`, without quotes; nil when empty or encoded.
    static func listName(_ value: String) -> String? {
        guard let open = value.firstIndex(of: "<") else { return nil }
        var name = value[..<open].trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        guard !name.isEmpty, !name.contains("=?") else { return nil }
        return String(name.prefix(200))
    }

    /// The headers VaultMail keeps from a message's header fields (`MessageHeaderFields`); nil without any.
    public init?(fields: [String: String]) {
        let listId = fields["list-id"].flatMap(CategorySignals.listIdentifier).map { $0.lowercased() }
        let unsubscribe = fields["list-unsubscribe"]
        guard listId != nil || unsubscribe != nil else { return nil }
        self.init(listId: listId, listName: fields["list-id"].flatMap(Self.listName), listUnsubscribe: unsubscribe,
                  listUnsubscribePost: fields["list-unsubscribe-post"])
    }

    /// What the headers offer; `.notOffered` when there is no List-Unsubscribe or it is malformed.
    public var method: UnsubscribeMethod {
        guard let listUnsubscribe else {
            return .notOffered(reason: "the message has no List-Unsubscribe header")
        }
        do {
            return try ListUnsubscribe.parse(listUnsubscribe: listUnsubscribe, listUnsubscribePost: listUnsubscribePost).method
        } catch {
            return .notOffered(reason: "\(error)")
        }
    }

    /// Whom unsubscribing leaves, in words: the List-Id's name ("Example News", "Developers"),
    /// else the sender's name (else address) when the list is in the sender's domain (a
    /// newsletter), else the list's identifier (a discussion list, whose mail comes from many people).
    public func name(senderName: String?, senderAddress: String) -> String {
        if let listName { return listName }
        let sender = senderName.flatMap { $0.isEmpty ? nil : $0 } ?? senderAddress
        guard let listId else { return sender }
        let domain = senderAddress.split(separator: "@").last.map { $0.lowercased() } ?? ""
        if !domain.isEmpty, listId == domain || listId.hasSuffix("." + domain) || domain.hasSuffix("." + listId) { return sender }
        return listId
    }

    /// Whom the person unsubscribes from: the list (`list:<List-Id>`), else the sender's address, lowercased.
    public func senderKey(fromAddress: String) -> String {
        listId.map { "list:" + $0 } ?? fromAddress.lowercased()
    }
}

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

/// The person unsubscribed from a sender.
public struct Unsubscription: Sendable, Hashable {
    public var accountId: String
    public var senderKey: String
    public var date: Date
    /// `UnsubscribeMethod.kind`: "one-click" or "mail".
    public var method: String

    public init(accountId: String, senderKey: String, date: Date, method: String) {
        self.accountId = accountId
        self.senderKey = senderKey
        self.date = date
        self.method = method
    }
}
