import VaultMailCore

/// The notification engine's surface (NOTIF-01).
@MainActor
public protocol NotificationServiceProtocol: AnyObject {
    func requestAuthorization() async -> Bool
    func authorizationStatus() async -> NotificationAuthStatus
    func processNewEmails(_ emails: [Email], fromBackground: Bool, activeFolderType: String?) async
    func removeNotifications(forEmailIds emailIds: [String]) async
    func removeNotifications(forThreadId threadId: String) async
    func updateBadgeCount() async
    func registerCategories() async
    /// Ends the first-launch suppression; called after the first successful sync of a session.
    func markFirstLaunchComplete()
}
