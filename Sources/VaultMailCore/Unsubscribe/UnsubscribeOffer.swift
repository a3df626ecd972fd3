import Foundation

/// How unsubscribing from a message would work (`Unsubscribe.offer`).
public struct UnsubscribeOffer: Sendable, Hashable {
    /// The message whose headers are used.
    public var emailId: String
    public var accountId: String
    /// When that message arrived.
    public var date: Date
    public var sender: Participant
    /// `ListHeaders.senderKey`: what "Unsubscribed" is remembered for.
    public var senderKey: String
    /// Whom unsubscribing leaves, in words (`ListHeaders.name`): "Example News", "dev.lists.example.org".
    public var name: String
    public var listId: String?
    public var method: UnsubscribeMethod
    /// When the person unsubscribed from this sender before; nil when never.
    public var unsubscribedAt: Date?

    /// The person unsubscribed before this message arrived: the sender did not stop.
    public var arrivedAfterUnsubscribing: Bool { unsubscribedAt.map { date > $0 } ?? false }

    /// The confirmation's question and what the action does:
    /// "Unsubscribe from Example News? Sends a one-click request to example.com."
    public var confirmation: String {
        "Unsubscribe from \(name)? \(method.summary)."
    }
}
