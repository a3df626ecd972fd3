import Foundation
import VaultMailCore

/// What conversation threading needs to know about one message.
public struct ThreadableMessage: Sendable, Hashable {
    /// The store's id of the email (`Email.id`).
    public var id: String
    /// The Message-ID with angle brackets (`ParsedMessage.stableMessageId`: never empty).
    public var messageId: String
    /// The msg-id In-Reply-To names (its last one: see `GMimeMessageParser`).
    public var inReplyTo: String?
    /// The msg-ids of References, oldest first.
    public var references: [String]
    public var subject: String
    public var date: Date?

    public init(id: String, messageId: String, inReplyTo: String? = nil, references: [String] = [], subject: String = "", date: Date? = nil) {
        self.id = id
        self.messageId = messageId
        self.inReplyTo = inReplyTo
        self.references = references
        self.subject = subject
        self.date = date
    }

    /// The threading facts of a parsed message stored as email `id`.
    public init(id: String, parsed: ParsedMessage) {
        self.init(
            id: id, messageId: parsed.stableMessageId, inReplyTo: parsed.inReplyTo,
            references: parsed.references, subject: parsed.subject, date: parsed.date
        )
    }
}
