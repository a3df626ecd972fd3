import Foundation

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
