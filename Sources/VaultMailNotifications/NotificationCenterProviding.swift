/// The operating system's notification centre behind a port (NOTIF-01): the D-Bus
/// notification server on Linux, a recording mock in tests.
@MainActor
public protocol NotificationCenterProviding: AnyObject {
    func requestAuthorization(options: NotificationAuthorizationOptions) async throws -> Bool
    func authorizationStatus() async -> NotificationAuthStatus
    /// Posts a notification; a request with an identifier already shown replaces it.
    func add(_ request: NotificationRequest) async throws
    func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async
    func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async
    func setNotificationCategories(_ categories: Set<NotificationCategory>) async
    func setBadgeCount(_ count: Int) async throws
    func deliveredNotifications() async -> [DeliveredNotification]
    /// Who receives the user's responses and decides foreground presentation.
    func setDelegate(_ delegate: (any NotificationCenterDelegate)?)
}

/// Receives responses from the centre (the `UNUserNotificationCenterDelegate` of the spec).
@MainActor
public protocol NotificationCenterDelegate: AnyObject {
    func didReceive(_ response: NotificationResponse) async
    func willPresent(_ notification: DeliveredNotification) -> NotificationPresentationOptions
}
