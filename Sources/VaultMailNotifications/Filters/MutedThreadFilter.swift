import VaultMailCore

/// NOTIF-11: muted conversations never notify.
@MainActor
public struct MutedThreadFilter: NotificationFilter {
    public let rule = NotificationRule.mutedThread
    private let settings: SettingsStore

    public init(settings: SettingsStore) { self.settings = settings }

    public func shouldNotify(for email: Email) async -> Bool {
        !settings.mutedThreadIds.contains(email.threadId)
    }
}
