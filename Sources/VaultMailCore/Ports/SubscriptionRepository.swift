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
    /// For each of these conversations with list mail, its newest received message that has
    /// list headers, with them and whether the person already unsubscribed from its sender.
    func newestListMail(threadIds: [String]) async throws -> [String: (emailId: String, headers: ListHeaders, unsubscribed: Bool)]
    /// The record for this sender, nil when the person never unsubscribed.
    func unsubscription(accountId: String, senderKey: String) async throws -> Unsubscription?
}
