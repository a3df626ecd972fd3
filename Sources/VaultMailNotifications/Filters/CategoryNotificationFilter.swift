import VaultMailCore

/// NOTIF-09: per-category toggles; unclassified mail (nil or "uncategorized") always passes, and
/// so does mail of a conversation marked "notify me" (issue 33).
@MainActor
public struct CategoryNotificationFilter: NotificationFilter {
    public let rule = NotificationRule.category
    private let settings: SettingsStore

    public init(settings: SettingsStore) { self.settings = settings }

    public func shouldNotify(for email: Email) async -> Bool {
        if settings.watchedThreadIds.contains(email.threadId) { return true }
        guard let category = email.aiCategory, category != AICategory.uncategorized.rawValue else { return true }
        return settings.notificationCategoryEnabled(for: category)
    }
}
