import Foundation
import VaultMailCore
import VaultMailDesktop
import VaultMailNotifications

extension CommandSession {
    /// `vaultmail notify status`: the notification server, what it can do, whether VaultMail
    /// may post, and the settings and badge.
    public func notifyStatus() async throws -> String {
        let center = DBusNotificationCenter(settings: settings)
        var lines: [String] = []
        do {
            let authorized = try await center.requestAuthorization(options: [.alert, .badge, .sound])
            if let server = center.serverInformation {
                lines.append("Server:        \(server.name) \(server.version) (\(server.vendor))")
                lines.append("Capabilities:  \(center.capabilities.sorted().joined(separator: ", "))")
                lines.append("Inline reply:  \(center.capabilities.contains("inline-reply") ? "yes" : "no (Reply opens the thread)")")
            } else {
                lines.append("Server:        none — \(DesktopNotificationError.noServer)")
            }
            lines.append("Authorization: \(authorized ? "authorized" : "denied")")
        } catch {
            lines.append("Server:        unreachable — \(error)")
            lines.append("Authorization: denied")
        }
        lines += try await notificationSettingsSummary()
        return lines.joined(separator: "\n")
    }
}
