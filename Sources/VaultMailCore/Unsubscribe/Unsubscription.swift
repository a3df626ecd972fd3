import Foundation

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
