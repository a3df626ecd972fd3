import Foundation

/// What became of a message the user sent (AC-U-11, E-12).
public enum SendOutcome: Sendable, Hashable {
    /// The server accepted it.
    case sent
    /// Undone within the delay: it is a draft again and nothing was transmitted.
    case cancelled
    /// Not sent yet: it waits in the outbox and goes out automatically (`reason` says why,
    /// e.g. the server cannot be reached; show "will send when online").
    case queued(reason: String, nextAttempt: Date?)
    /// Not sent and not retried automatically; the user must act (`reason` says why).
    case failed(reason: String)
}
