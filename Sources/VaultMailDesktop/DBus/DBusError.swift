/// What went wrong talking to D-Bus, with what to do about it.
public enum DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session bus address: DBUS_SESSION_BUS_ADDRESS unset and no $XDG_RUNTIME_DIR/bus.
    case noSessionBus
    case connectFailed(address: String, reason: String)
    /// The connection was closed (the bus went away).
    case disconnected
    /// The peer did not answer within the timeout.
    case timeout(destination: String, member: String, seconds: Double)
    /// The peer answered with a D-Bus error.
    case remote(name: String, message: String, member: String)
    /// sd-bus refused a call of ours.
    case local(operation: String, code: Int32)
    /// A reply did not have the shape we expected.
    case unexpectedReply(member: String, signature: String)

    public var description: String {
        switch self {
        case .noSessionBus:
            "no session bus: DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist; run inside a desktop session or set DBUS_SESSION_BUS_ADDRESS"
        case .connectFailed(let address, let reason):
            "cannot connect to the session bus at \(address): \(reason); check that the desktop session (or dbus-daemon) still runs and DBUS_SESSION_BUS_ADDRESS points at it"
        case .disconnected:
            "the session bus connection was closed; it is reopened on the next use"
        case .timeout(let destination, let member, let seconds):
            "\(destination) did not answer \(member) within \(String(format: "%g", seconds)) s; the program serving it may be hung (restart it)"
        case .remote(let name, let message, let member):
            "\(member) failed: \(name): \(message)"
        case .local(let operation, let code):
            "D-Bus \(operation) failed: \(String(cString: strerror(-code)))"
        case .unexpectedReply(let member, let signature):
            "\(member) answered with an unexpected reply of type '\(signature)'"
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
