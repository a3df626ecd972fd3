import VaultMailCore

/// NOTIF-08: the per-account toggle (on unless turned off).
@MainActor
public struct AccountNotificationFilter: NotificationFilter {
    public let rule = NotificationRule.account
    private let settings: SettingsStore

    public init(settings: SettingsStore) { self.settings = settings }

    public func shouldNotify(for email: Email) async -> Bool {
        settings.notificationsEnabled(for: email.accountId)
    }
}
