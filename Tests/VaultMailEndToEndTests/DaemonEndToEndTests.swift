import Foundation
import Testing
import VaultMailTesting

/// The built `vaultmail` binary, driven as a user would, against a private Dovecot, a
/// private D-Bus and the recording notification server.
@Suite("vaultmail daemon end to end (issue 7)", .serialized)
struct DaemonEndToEndTests {
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/vaultmail").path

    func message(_ subject: String, from: String = "Grace Hopper <grace@example.org>") -> Data {
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return Data("""
            From: \(from)\r
            To: ada@localhost\r
            Subject: \(subject)\r
            Date: \(date.string(from: Date()))\r
            Message-ID: <\(UUID().uuidString)@example.org>\r
            \r
            Hello from the end-to-end test.\r

            """.utf8)
    }

    func run(_ arguments: [String], environment: [String: String]) async throws -> (status: Int32, output: String) {
        let process = try ChildProcess(Self.binary, arguments, environment: environment)
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        return (process.exitStatus, process.lines.joined(separator: "\n") + process.errorOutput)
    }

    @Test("New mail on the server notifies within seconds; a second daemon refuses; SIGTERM stops it; a restart announces nothing twice")
    func daemon() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            Issue.record("build the tool first (`swift build`): \(Self.binary) is missing")
            return
        }
        let dovecot = try await DovecotServer.start(users: ["ada": "ada-password"])
        let bus = try await DBusDaemon.start()
        let server = try await RecordingNotificationServer.start(on: bus)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-e2e-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = bus.environment()
        environment["VAULTMAIL_HOME"] = home.path
        try dovecot.deliver(message("Already there"), to: "ada")

        let added = try await run(["account", "add", "work", "--email", "ada@localhost", "--imap", "127.0.0.1:\(dovecot.imapPort)",
                                   "--smtp", "127.0.0.1:2525", "--security", "plain", "--user", "ada",
                                   "--password-command", "echo ada-password"], environment: environment)
        #expect(added.status == 0, "\(added.output)")

        var daemon = try ChildProcess(Self.binary, ["daemon"], environment: environment)
        try await waitFor(daemon, "first sync done")
        #expect(server.calls("Notify").isEmpty, "the first sync never notifies")

        let second = try await run(["daemon"], environment: environment)
        #expect(second.status == 1)
        #expect(second.output.contains("already running"))

        let clock = ContinuousClock()
        let start = clock.now
        try dovecot.deliver(message("Fresh news"), to: "ada")
        let notify = try await server.waitForCall("Notify", timeout: .seconds(30))
        let latency = clock.now - start
        print("APPEND → Notify through the daemon: \(latency)")
        #expect(latency < .seconds(5))
        #expect(notify["summary"] as? String == "Grace Hopper")
        #expect((notify["body"] as? String)?.contains("Fresh news") == true)

        let stopping = clock.now
        daemon.signal(SIGTERM)
        while daemon.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(clock.now - stopping < .seconds(5))
        #expect(daemon.exitStatus == 0, "\(daemon.errorOutput)")

        daemon = try ChildProcess(Self.binary, ["daemon"], environment: environment)
        try await waitFor(daemon, "first sync done")
        try await waitFor(daemon, "new by IDLE", absent: true)
        #expect(server.calls("Notify").count == 1, "nothing is announced twice after a restart")
        daemon.stop()
        try await dovecot.stop()
    }

    /// Waits until the daemon's log shows `text` (or, with `absent`, that its first IDLE round passed without it).
    func waitFor(_ daemon: ChildProcess, _ text: String, absent: Bool = false) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while ContinuousClock.now < deadline {
            if daemon.errorOutput.contains(text) {
                if absent { Issue.record("the daemon logged '\(text)' unexpectedly: \(daemon.errorOutput)") }
                return
            }
            if absent && daemon.errorOutput.components(separatedBy: "first sync done").count > 1 { return }
            guard daemon.isRunning else { throw ChildProcess.Failure(description: "the daemon exited: \(daemon.errorOutput)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChildProcess.Failure(description: "the daemon did not log '\(text)' within 60 s: \(daemon.errorOutput)")
    }
}
