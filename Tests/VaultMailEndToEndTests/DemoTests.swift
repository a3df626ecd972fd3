import Foundation
import Testing
import VaultMailCore

/// The README's `make demo`, run as a newcomer on a machine without a display would: the
/// built `vaultmail-demo` binary, which starts its own servers and drives `vaultmail`.
@Suite("The README's demo (issue 7)", .serialized)
struct DemoTests {
    static let buildDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug")
    static let demo = buildDirectory.appendingPathComponent("vaultmail-demo").path
    static let tool = buildDirectory.appendingPathComponent("vaultmail").path

    @Test("Issue 7: the demo runs headless to the end — a printed notification, Mark Read changes Dovecot, a reply reaches SMTP, quiet hours and mute hold, nothing left behind")
    func demoRunsToTheEnd() async throws {
        for binary in [Self.demo, Self.tool] where !FileManager.default.isExecutableFile(atPath: binary) {
            Issue.record("build first (`swift build`): \(binary) is missing")
            return
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        let result = try await ProcessCapture.run(Self.demo, [], environment: environment, timeout: .seconds(300))
        let output = String(decoding: result.output, as: UTF8.self)
        #expect(result.exitedNormally && result.status == 0, "exit status \(result.status):\n\(output)")
        #expect(!output.contains("✗"), "the demo reported a problem:\n\(output)")

        // The first sync is silent; the first new message is a printed notification with its buttons.
        #expect(output.contains("✓ the first sync raised no notification"), "\(output)")
        #expect(output.contains("✓ a headless Chromium signed in and shows"), "\(output)")
        #expect(output.contains("🔔 Alan Turing — Lunch on Friday?"), "\(output)")
        #expect(output.contains("buttons: Open · Mark Read · Archive · Delete · Reply"), "\(output)")
        // Mark Read: the daemon closed the notification and Dovecot has the flag.
        #expect(output.contains("✓ the daemon closed the notification (CloseNotification"), "\(output)")
        #expect(output.contains("flags: \\Seen"), "\(output)")
        // The rules: the VIP notifies in quiet hours, the others do not.
        #expect(output.contains("🔔 Grace Hopper — Can you review my COBOL spec today?"), "\(output)")
        #expect(output.contains("🔕 no notification (rule: quiet-hours)"), "\(output)")
        #expect(output.contains("🔕 no notification (rule: muted-thread)"), "\(output)")
        #expect(!output.contains("🔔 Frances Allen"), "\(output)")
        #expect(!output.contains("🔔 Katherine Johnson"), "\(output)")
        // The inline reply went out through the SMTP server.
        #expect(output.contains("Subject: Re: Can you review my COBOL spec today?"), "\(output)")

        // Every temporary directory it names is gone.
        let removed = output.split(separator: "\n").first { $0.contains("✓ removed ") }
        let paths = try #require(removed, "\(output)").components(separatedBy: "✓ removed ").last?
            .components(separatedBy: ", ") ?? []
        #expect(paths.count == 4, "\(paths)")
        for path in paths {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) was left behind")
        }
    }
}
