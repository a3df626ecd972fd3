import Foundation
import Testing
import VaultMailTesting

/// When an account stops working the daemon says so once, and takes it back when it works again.
@Suite("vaultmail daemon account alerts end to end (issue 7)", .serialized)
struct AccountHealthEndToEndTests {
    static let alertSummary = "VaultMail: work needs attention"

    func alerts(_ world: EndToEndWorld) -> [[String: Any]] {
        world.notifications.calls("Notify").filter { $0["summary"] as? String == Self.alertSummary }
    }

    @Test("A login that starts failing raises one alert naming the account and why, no repeats, withdrawn once it works")
    func loginFails() async throws {
        try await EndToEndWorld.with { world in
            let passwordFile = world.home.deletingLastPathComponent().appendingPathComponent("\(world.home.lastPathComponent)-password")
            defer { try? FileManager.default.removeItem(at: passwordFile) }
            try EndToEndWorld.password.write(to: passwordFile, atomically: true, encoding: .utf8)
            try await world.addAccount(passwordCommand: "cat '\(passwordFile.path)'")
            try await world.startDaemon(["--reconnect-max-seconds", "1"])

            // The password is changed elsewhere; the server drops every connection.
            try "an-old-password".write(to: passwordFile, atomically: true, encoding: .utf8)
            try await world.dovecot.restart()
            let alert = try await world.notifications.waitForEvent(timeout: .seconds(90)) {
                $0["method"] as? String == "Notify" && $0["summary"] as? String == Self.alertSummary
            }
            let body = alert["body"] as? String ?? ""
            #expect(body.contains("Cannot log in") && body.contains("ada"), "\(body)")
            #expect(!body.contains("an-old-password"), "the alert never shows the password")
            // Logged as what it is (issue 34): a refused sign-in, not a lost connection.
            let failures = world.daemon?.occurrences(of: "cannot sign in") ?? 0
            try await world.waitForLog("cannot sign in", count: failures + 2)
            #expect(alerts(world).count == 1, "no repeats while the login keeps failing")

            try EndToEndWorld.password.write(to: passwordFile, atomically: true, encoding: .utf8)
            let id = try #require(alert["id"] as? Int)
            try await world.notifications.waitForEvent(timeout: .seconds(90)) {
                $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == id
            }
            try world.deliver(EndToEndWorld.message("Working again"))
            try await world.waitForNotification(mentioning: "Working again")
            #expect(!(world.daemon?.errorOutput.contains("an-old-password") ?? true), "the log never shows the password")
        }
    }

    @Test("A server unreachable past the grace period raises one alert; it is withdrawn when the server is back")
    func outage() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon(["--outage-grace-seconds", "3", "--reconnect-max-seconds", "1"])
            try await world.dovecot.stop()
            let alert = try await world.notifications.waitForEvent(timeout: .seconds(90)) {
                $0["method"] as? String == "Notify" && $0["summary"] as? String == Self.alertSummary
            }
            #expect((alert["body"] as? String)?.contains("No connection for 3 seconds") == true, "\(alert)")
            let failures = world.daemon?.occurrences(of: "connection lost") ?? 0
            try await world.waitForLog("connection lost", count: failures + 2)
            #expect(alerts(world).count == 1, "no repeats while the outage lasts")

            try await world.dovecot.restart()
            let id = try #require(alert["id"] as? Int)
            try await world.notifications.waitForEvent(timeout: .seconds(90)) {
                $0["method"] as? String == "CloseNotification" && $0["id"] as? Int == id
            }
        }
    }
}
