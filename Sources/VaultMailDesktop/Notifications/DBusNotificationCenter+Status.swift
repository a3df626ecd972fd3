import VaultMailCore
import VaultMailNotifications

extension DBusNotificationCenter {
    /// Asks the notification server who it is and what it can do (`notify status`, the web
    /// app's notification settings).
    public func status() async -> NotificationServerStatus {
        do {
            let authorized = try await requestAuthorization(options: [.alert, .badge, .sound])
            guard let server = serverInformation else {
                return NotificationServerStatus(server: nil, capabilities: [], authorized: false, problem: PlainProblem(DesktopNotificationError.noServer))
            }
            return NotificationServerStatus(
                server: "\(server.name) \(server.version) (\(server.vendor))", capabilities: capabilities.sorted(),
                authorized: authorized, problem: authorized ? nil : lastError.map { PlainProblem($0) })
        } catch {
            return NotificationServerStatus(server: nil, capabilities: [], authorized: false, problem: PlainProblem(error))
        }
    }
}
