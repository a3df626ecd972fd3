import Foundation

/// The scriptable notification server of `scripts/recording-notification-server.py` on a
/// test bus: every call it receives is a JSON event; signals are emitted on command.
public final class RecordingNotificationServer: @unchecked Sendable {
    // @unchecked: immutable after init; `ChildProcess` is thread-safe.
    private let process: ChildProcess
    public let uniqueName: String

    /// Where the script lives, found from this file's place in the repository.
    public static let scriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/recording-notification-server.py").path

    public static func start(on bus: DBusDaemon, capabilities: [String] = ["actions", "body", "body-markup", "inline-reply", "persistence"],
                             hang: Bool = false) async throws -> RecordingNotificationServer {
        var arguments = [scriptPath, "--capabilities", capabilities.joined(separator: ",")]
        if hang { arguments.append("--hang") }
        let process = try ChildProcess("/usr/bin/python3", arguments, environment: bus.environment())
        let (line, _) = try await process.waitForLine { $0.contains("\"ready\"") }
        let event = try Self.decode(line)
        return RecordingNotificationServer(process: process, uniqueName: event["unique_name"] as? String ?? "")
    }

    private init(process: ChildProcess, uniqueName: String) {
        self.process = process
        self.uniqueName = uniqueName
    }

    /// Every event so far, decoded.
    public var events: [[String: Any]] { process.lines.compactMap { try? Self.decode($0) } }

    public func calls(_ method: String) -> [[String: Any]] {
        events.filter { $0["event"] as? String == "call" && $0["method"] as? String == method }
    }

    /// Waits for the `count`-th event satisfying `predicate` and returns it.
    @discardableResult
    public func waitForEvent(count: Int = 1, timeout: Duration = .seconds(30),
                             where predicate: @escaping @Sendable ([String: Any]) -> Bool) async throws -> [String: Any] {
        var seen = 0
        var from = 0
        while true {
            let (line, index) = try await process.waitForLine(from: from, timeout: timeout) { line in
                (try? Self.decode(line)).map(predicate) ?? false
            }
            seen += 1
            if seen == count { return try Self.decode(line) }
            from = index + 1
        }
    }

    public func waitForCall(_ method: String, count: Int = 1, timeout: Duration = .seconds(30)) async throws -> [String: Any] {
        try await waitForEvent(count: count, timeout: timeout) { $0["event"] as? String == "call" && $0["method"] as? String == method }
    }

    /// Sends a command and waits until the server has carried it out.
    public func command(_ command: [String: Any]) async throws {
        let doneBefore = events.filter { $0["event"] as? String == "done" }.count
        let data = try JSONSerialization.data(withJSONObject: command)
        try process.send(String(decoding: data, as: UTF8.self))
        try await waitForEvent(count: doneBefore + 1) { $0["event"] as? String == "done" }
    }

    public func emitAction(id: UInt32, key: String) async throws {
        try await command(["emit": "ActionInvoked", "id": id, "key": key])
    }

    public func emitReply(id: UInt32, text: String) async throws {
        try await command(["emit": "NotificationReplied", "id": id, "text": text])
    }

    public func emitClosed(id: UInt32, reason: UInt32 = 2) async throws {
        try await command(["emit": "NotificationClosed", "id": id, "reason": reason])
    }

    public func stop() { process.stop() }

    deinit { process.stop() }

    private static func decode(_ line: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw ChildProcess.Failure(description: "not a JSON object: \(line)")
        }
        return object
    }
}
