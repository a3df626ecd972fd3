import Foundation

/// The user's own replies, for suggestions without a generative model (AC-A-05): what the
/// user answered before to messages like the one in front of them.
public protocol ReplyHistory: Sendable {
    /// The user's sent replies to these emails, keyed by the id of the email each answers (its
    /// In-Reply-To is that email's Message-ID, and it comes from the account's own address).
    /// Emails nobody answered are absent; of several replies, the first sent is given.
    func replies(toEmailIds ids: [String]) async throws -> [String: Email]
}
