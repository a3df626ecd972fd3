import Foundation
import Testing
import VaultMailCore
import VaultMailDesktop
import VaultMailNotifications
import VaultMailStore
import VaultMailTesting

/// A real notification daemon: dunst on a virtual X display, driven through `dunstctl`.
@MainActor
@Suite("Smoke test with dunst under Xvfb", .serialized)
struct DunstSmokeTests {
    static let artifacts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("artifacts")

    @Test("dunst shows our notification, invokes its default action through dunstctl, and keeps it in history; screenshot saved")
    func dunst() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-dunst-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let xvfb = try ChildProcess("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "1024x600x24", "-nolisten", "tcp"])
        defer { xvfb.stop() }
        let display = ":" + (try await xvfb.waitForLine(where: { Int($0) != nil }).line)
        let desktop = try await DesktopFixture(startServer: false)
        var environment = desktop.bus.environment()
        environment["DISPLAY"] = display
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.path
        let dunst = try ChildProcess("/usr/bin/dunst", [], environment: environment)
        defer { dunst.stop() }
        try await waitUntil {
            let granted = try? await desktop.center.requestAuthorization(options: [.alert])
            return granted == true
        }
        #expect(desktop.center.serverInformation?.name == "dunst")

        let email = try await desktop.email(1, thread: "T-dunst", subject: "Dunst smoke test", snippet: "Hello from VaultMail")
        await desktop.sync([email])
        #expect(try await desktop.app.notificationLedger.decision(forEmailId: email.id)?.outcome == .notified)
        try await waitUntil { (try? Self.dunstctl(["count", "displayed"], environment).trimmingCharacters(in: .whitespacesAndNewlines)) == "1" }

        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let screenshot = Self.artifacts.appendingPathComponent("dunst-smoke.png")
        try? FileManager.default.removeItem(at: screenshot)
        _ = try Self.run("/usr/bin/import", ["-window", "root", screenshot.path], environment)
        let attributes = try FileManager.default.attributesOfItem(atPath: screenshot.path)
        #expect((attributes[.size] as? Int ?? 0) > 1000)
        print("dunst screenshot: \(screenshot.path)")

        _ = try Self.dunstctl(["action", "0"], environment)
        #expect(try await desktop.waitForOutcome() == .openedThread(threadId: "T-dunst"))
        try await waitUntil { (try? Self.dunstctl(["count", "history"], environment).trimmingCharacters(in: .whitespacesAndNewlines)) == "1" }
        let history = try Self.dunstctl(["history"], environment)
        #expect(history.contains("Ada Lovelace"))
        #expect(history.contains("VaultMail"))
        #expect(history.contains("Dunst smoke test"))
    }

    static func dunstctl(_ arguments: [String], _ environment: [String: String]) throws -> String {
        try run("/usr/bin/dunstctl", arguments, environment)
    }

    /// Runs a short command to completion; its output, or an error with it.
    static func run(_ executable: String, _ arguments: [String], _ environment: [String: String]) throws -> String {
        let result = try ProcessCapture.run(executable, arguments, environment: environment, timeout: .seconds(30))
        let text = String(decoding: result.output, as: UTF8.self)
        guard result.exitedNormally, result.status == 0 else {
            throw ChildProcess.Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed (\(result.status)): \(text)")
        }
        return text
    }
}
