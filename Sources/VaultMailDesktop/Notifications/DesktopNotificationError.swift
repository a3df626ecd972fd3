import VaultMailCore

/// Why a desktop notification could not be shown, and what to do about it.
public enum DesktopNotificationError: Error, Sendable, Equatable, CustomStringConvertible, PlainWordsError {
    /// There is no session bus to talk to.
    case noSessionBus(String)
    /// No program owns `org.freedesktop.Notifications` on the session bus.
    case noServer
    /// The notification server owns the name but did not answer in time.
    case serverTimeout(seconds: Double)
    /// The server answered with an error.
    case serverError(String)

    public var description: String {
        switch self {
        case .noSessionBus(let reason):
            reason
        case .noServer:
            "no notification server is running on the session bus (nothing owns org.freedesktop.Notifications); start your desktop's notification daemon, e.g. dunst"
        case .serverTimeout(let seconds):
            "the notification server did not answer within \(String(format: "%g", seconds)) s; it may be hung (restart it); VaultMail keeps counting mail and retries shortly"
        case .serverError(let message):
            "the notification server refused the notification: \(message); restart the notification server if it keeps refusing (VaultMail keeps counting mail meanwhile)"
        }
    }

    public var plainWords: String {
        switch self {
        case .noSessionBus:
            "Notifications can't be shown: VaultMail is not running inside a desktop session. Start it from your desktop; mail is still synced and counted."
        case .noServer:
            "No notification program is running on your desktop. Start your desktop's notification program (or dunst or mako on a bare window manager); mail is still synced and counted."
        case .serverTimeout:
            "The desktop's notification program stopped answering. Restart it; VaultMail keeps counting mail and tries again shortly."
        case .serverError:
            "The desktop's notification program refused the notification. Restart it if it keeps refusing; VaultMail keeps counting mail meanwhile."
        }
    }
}
