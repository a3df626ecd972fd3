import Foundation

/// Someone in the user's own mail: how often and how lately the user wrote to them, and
/// how often and how lately they wrote to the user.
public struct Contact: Sendable, Hashable {
    public var email: String
    /// The name last seen with the address.
    public var name: String?
    public var sentCount: Int
    public var lastSent: Date?
    public var receivedCount: Int
    public var lastReceived: Date?
    /// How many of the messages received from them were sorted out of Primary (promotions,
    /// updates, forums, social: newsletters, notifications, list mail — List-Unsubscribe,
    /// Precedence: bulk and the like, as the categories read them).
    public var bulkCount: Int

    public init(email: String, name: String? = nil, sentCount: Int = 0, lastSent: Date? = nil,
                receivedCount: Int = 0, lastReceived: Date? = nil, bulkCount: Int = 0) {
        self.email = email
        self.name = name
        self.sentCount = sentCount
        self.lastSent = lastSent
        self.receivedCount = receivedCount
        self.lastReceived = lastReceived
        self.bulkCount = bulkCount
    }

    public var participant: Participant { Participant(name: name, email: email) }
}
