import VaultMailCore

/// NOTIF-10: true when the sender is a VIP; the pipeline then skips every other filter.
@MainActor
public struct VIPContactFilter: NotificationFilter {
    public let rule = NotificationRule.vip
    private let settings: SettingsStore

    public init(settings: SettingsStore) { self.settings = settings }

    public func shouldNotify(for email: Email) async -> Bool {
        settings.isVIP(email.fromAddress)
    }
}
