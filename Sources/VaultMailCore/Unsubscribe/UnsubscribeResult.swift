import Foundation

/// The result of `Unsubscribe.unsubscribe`.
public struct UnsubscribeResult: Sendable, Hashable {
    public var offer: UnsubscribeOffer
    public var outcome: UnsubscribeOutcome

    public var succeeded: Bool { outcome.succeeded }

    /// What happened, in plain words.
    public var message: String {
        let who = offer.name
        switch outcome {
        case .done(let host, _):
            return "Unsubscribed from \(who): \(host) accepted the request."
        case .answered(let host, let status) where (300..<400).contains(status):
            return "Not confirmed: the sender's server \(host) answered \(status), a redirect, which VaultMail does not "
                + "follow (a one-click request is answered directly). You may still be subscribed to \(who)."
        case .answered(let host, let status):
            return "Not confirmed: the sender's server \(host) answered \(status). You may still be subscribed to \(who); try again later."
        case .unreachable(let host, let reason):
            return "Not sent: \(host) could not be reached (\(reason)). You are still subscribed to \(who); try again later."
        case .mailSent(let to):
            return "Unsubscribe email sent to \(to.joined(separator: ", ")). Mail from \(who) should stop soon."
        case .mailQueued(let to, let reason):
            return "The unsubscribe email to \(to.joined(separator: ", ")) waits in the outbox (\(reason)); it is sent automatically."
        case .mailFailed(let to, let reason):
            return "The unsubscribe email to \(to.joined(separator: ", ")) could not be sent: \(reason). It is in the outbox as failed."
        }
    }
}
