import Foundation

/// What happened when unsubscribing.
public enum UnsubscribeOutcome: Sendable, Hashable {
    /// The sender's server accepted the one-click request (a 2xx status).
    case done(host: String, status: Int)
    /// The sender's server answered another status (a redirect is not followed).
    case answered(host: String, status: Int)
    /// The request could not be made.
    case unreachable(host: String, reason: String)
    /// The unsubscribe mail went out.
    case mailSent(to: [String])
    /// The unsubscribe mail waits in the outbox and is retried.
    case mailQueued(to: [String], reason: String)
    /// The unsubscribe mail could not be sent.
    case mailFailed(to: [String], reason: String)

    /// The request was accepted or the mail is sent (or will go by itself).
    public var succeeded: Bool {
        switch self {
        case .done, .mailSent, .mailQueued: true
        case .answered, .unreachable, .mailFailed: false
        }
    }
}
