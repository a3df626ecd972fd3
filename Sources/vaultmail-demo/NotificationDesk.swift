import Foundation
import VaultMailCore
import VaultMailTesting

/// The notification server on the demo's private bus: dunst drawing on the user's display,
/// or, with no display, the recording server whose every `Notify` the demo prints.
@MainActor
final class NotificationDesk {
    enum Kind {
        case recording(RecordingNotificationServer)
        case dunst(ChildProcess, environment: [String: String])
    }

    let kind: Kind
    /// A sentence saying which server it is and where notifications appear.
    let description: String

    private init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }

    var isRecording: Bool {
        if case .recording = kind { return true }
        return false
    }

    /// dunst when `display` names one and dunst starts there, else the recording server.
    /// `configDirectory` keeps the user's own dunstrc out of the demo.
    static func start(on bus: DBusDaemon, display: String?, configDirectory: URL) async throws -> (NotificationDesk, note: String?) {
        var note: String?
        if let display {
            do {
                var environment = bus.environment()
                environment["XDG_CONFIG_HOME"] = configDirectory.path
                let dunst = try await startDunst(environment: environment)
                return (NotificationDesk(kind: .dunst(dunst, environment: environment),
                                         description: "dunst, drawing on your display \(display)"), nil)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                note = "dunst did not start on \(display) (\(error)); notifications are printed instead."
            }
        }
        let server = try await RecordingNotificationServer.start(on: bus)
        return (NotificationDesk(
            kind: .recording(server),
            description: """
                the recording server (scripts/recording-notification-server.py)
                     in dunst's place\(display == nil ? ", as there is no display" : ""): it draws nothing; the demo prints
                     every notification it receives, with its buttons, and presses some of them.
                """), note)
    }

    private static func startDunst(environment: [String: String]) async throws -> ChildProcess {
        let dunst = try ChildProcess("/usr/bin/dunst", [], environment: environment)
        // Ready once it answers on the bus.
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            let reply = try await ProcessCapture.run("/usr/bin/dunstctl", ["is-paused"], environment: environment, timeout: .seconds(10))
            if reply.exitedNormally, reply.status == 0 { return dunst }
            guard dunst.isRunning else {
                throw DemoFailure("dunst exited: \(dunst.errorOutput.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            guard ContinuousClock.now < deadline else {
                dunst.stop()
                throw DemoFailure("dunst did not answer on the bus within 15 s")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Every notification the recording server has received, in order (none for dunst).
    var received: [ShownNotification] {
        guard case .recording(let server) = kind else { return [] }
        return server.calls("Notify").map(ShownNotification.init(notifyCall:))
    }

    /// The ids the daemon asked the server to close.
    var closed: [UInt32] {
        guard case .recording(let server) = kind else { return [] }
        return server.calls("CloseNotification").compactMap { ($0["id"] as? Int).map(UInt32.init) }
    }

    /// Waits until the recording server has received a notification whose subject is
    /// `subject`, beyond the first `known`.
    func waitForNotification(subject: String, after known: Int, timeout: Duration = .seconds(30)) async throws -> ShownNotification {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let found = received.dropFirst(known).first(where: { $0.subject == subject }) { return found }
            guard ContinuousClock.now < deadline else {
                throw DemoFailure("the notification server received no notification for \"\(subject)\" within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until the daemon closes notification `id`.
    func waitForClose(_ id: UInt32, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !closed.contains(id) {
            guard ContinuousClock.now < deadline else {
                throw DemoFailure("the daemon did not close notification \(id) within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Presses a button, as a click would: the server emits `ActionInvoked`.
    func press(_ label: String, on notification: ShownNotification) async throws {
        guard case .recording(let server) = kind else { return }
        guard let key = notification.actionKeys[label] else {
            throw DemoFailure("the notification has no \"\(label)\" button; it offers \(notification.actions.joined(separator: ", "))")
        }
        try await server.emitAction(id: notification.serverId, key: key)
    }

    /// Types a reply into the notification's inline reply field and sends it.
    func reply(_ text: String, to notification: ShownNotification) async throws {
        guard case .recording(let server) = kind else { return }
        try await server.emitReply(id: notification.serverId, text: text)
    }

    /// What dunst says it has on screen, waiting and in its history (`dunstctl count`); nil
    /// for the recording server.
    func dunstCount() async -> String? {
        guard case .dunst(_, let environment) = kind,
              let result = try? await ProcessCapture.run("/usr/bin/dunstctl", ["count"], environment: environment, timeout: .seconds(10))
        else { return nil }
        return String(decoding: result.output, as: UTF8.self)
    }

    func stop() {
        switch kind {
        case .recording(let server): server.stop()
        case .dunst(let dunst, _): dunst.stop()
        }
    }
}
