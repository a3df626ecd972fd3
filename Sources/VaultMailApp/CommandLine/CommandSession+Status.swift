import Foundation
import VaultMailCore
import VaultMailDesktop
import VaultMailNotifications

extension CommandSession {
    /// `vaultmail notify status`: the notification server, what it can do, whether VaultMail
    /// may post, and the settings and badge.
    public func notifyStatus() async throws -> String {
        let status = await dependencies.notificationCenter.status()
        var lines: [String] = []
        if let server = status.server {
            lines.append("Server:        \(server)")
            lines.append("Capabilities:  \(status.capabilities.joined(separator: ", "))")
            lines.append("Inline reply:  \(status.inlineReply ? "yes" : "no (Reply opens the thread)")")
        } else {
            lines.append("Server:        none — \(status.problem?.words ?? "")")
            if let detail = status.problem?.detail { lines.append("               Details: \(detail)") }
        }
        lines.append("Authorization: \(status.authorized ? "authorized" : "denied")")
        lines += try await notificationSettingsSummary()
        return lines.joined(separator: "\n")
    }
}
