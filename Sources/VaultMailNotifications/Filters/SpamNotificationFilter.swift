import VaultMailCore

/// NOTIF-12: spam never notifies.
@MainActor
public struct SpamNotificationFilter: NotificationFilter {
    public let rule = NotificationRule.spam

    public init() {}

    public func shouldNotify(for email: Email) async -> Bool {
        !email.isSpam
    }
}
