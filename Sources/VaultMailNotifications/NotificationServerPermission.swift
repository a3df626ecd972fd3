import VaultMailCore

/// The notification engine's rule for permission (NOTIF-02, AC-N-02): already authorized, or
/// else asked of the notification server for alerts, badge and sound; a server that is
/// missing or says no refuses. `NotificationSettings` asks it before switching anything on.
@MainActor
public final class NotificationServerPermission: NotificationPermission {
    /// What VaultMail asks the notification server for (NOTIF-02).
    public static let options: NotificationAuthorizationOptions = [.alert, .badge, .sound]

    private let center: any NotificationCenterProviding

    public init(center: any NotificationCenterProviding) {
        self.center = center
    }

    public func request() async -> NotificationPermissionAnswer {
        if await center.authorizationStatus() == .authorized { return .granted }
        do {
            return try await center.requestAuthorization(options: Self.options)
                ? .granted : .refused("the notification server did not allow it")
        } catch {
            return .refused("\(error)")
        }
    }
}
