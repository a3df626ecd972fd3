import Foundation

/// The headers of an answer to `original` (RFC 5322 §3.6.4): "Re:" once, In-Reply-To its
/// Message-ID, References its references followed by its Message-ID; in its conversation.
/// `ComposeTemplate` writes every reply with them (the recipients are its own rule).
public struct ReplyHeaders: Sendable, Equatable {
    public var subject: String
    public var inReplyTo: String
    public var references: String
    public var threadId: String

    public init(answering original: Email) {
        subject = Self.subject(original.subject)
        inReplyTo = original.messageId
        references = [original.references, original.messageId].compactMap { $0 }.joined(separator: " ")
        threadId = original.threadId
    }

    /// "Re: " once: never doubled, whatever its case (E-17).
    public static func subject(_ subject: String) -> String {
        let trimmed = subject.trimmingCharacters(in: .whitespaces)
        return trimmed.lowercased().hasPrefix("re:") ? subject : "Re: \(subject)"
    }
}
