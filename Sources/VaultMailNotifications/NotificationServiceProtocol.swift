import VaultMailCore

/// The notification engine's surface (NOTIF-01).
@MainActor
public protocol NotificationServiceProtocol: AnyObject {
    func requestAuthorization() async -> Bool
    func authorizationStatus() async -> NotificationAuthStatus
    /// Posts desktop banners for the new mail that qualifies; returns the in-app banners.
    @discardableResult
    func processNewEmails(_ emails: [Email], fromBackground: Bool, activeFolderType: String?) async -> [NotificationContent]
    func removeNotifications(forEmailIds emailIds: [String]) async
    func removeNotifications(forThreadId threadId: String) async
    func updateBadgeCount() async
    func registerCategories() async
    /// Ends the first-launch suppression; called after the first successful sync of a session.
    func markFirstLaunchComplete()
}
