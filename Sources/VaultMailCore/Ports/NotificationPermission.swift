/// The notification server's permission to show notifications (NOTIF-02), asked before
/// notifications are switched on (AC-N-02, E-19). The notification engine answers it
/// (`NotificationServerPermission`, over the desktop's notification server).
public protocol NotificationPermission: Sendable {
    /// Asks whether VaultMail may show notifications now.
    func request() async -> NotificationPermissionAnswer
}

/// What the notification server answered.
public enum NotificationPermissionAnswer: Sendable, Equatable {
    case granted
    /// Refused, with why (no notification server answered, it said no).
    case refused(String)
}
