import Foundation
import VaultMailCore

/// The stable JSON of `vaultmail search --json` (see docs/cli.md): the rows of
/// `threads --json` (or, with `--messages`, message rows) plus the highlighted snippet.
public enum SearchJSON {
    /// A piece of the snippet; `match` is present (true) on the words that matched.
    public struct Segment: Codable, Sendable, Equatable {
        public var text: String
        public var match: Bool?
    }

    /// A `threads --json` row with the newest matching email and its snippet.
    public struct ThreadHit: Encodable, Sendable {
        public var thread: ThreadJSON.Thread
        public var matchedEmailId: String
        public var highlight: [Segment]

        private enum CodingKeys: String, CodingKey { case matchedEmailId, highlight }

        public func encode(to encoder: any Encoder) throws {
            try thread.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(matchedEmailId, forKey: .matchedEmailId)
            try container.encode(highlight, forKey: .highlight)
        }
    }

    public struct MessageHit: Codable, Sendable {
        public var id: String
        public var threadId: String
        public var accountId: String
        public var messageId: String
        public var from: ThreadJSON.Person
        public var to: [ThreadJSON.Person]
        public var cc: [ThreadJSON.Person]
        public var subject: String
        public var date: String
        public var isRead: Bool
        public var isStarred: Bool
        public var hasAttachments: Bool
        public var category: String?
        public var highlight: [Segment]
    }

    public struct Page<Hit: Encodable & Sendable>: Encodable, Sendable {
        public var query: String
        public var results: [Hit]
        public var nextCursor: String?
        public var hasMore: Bool
    }

    public struct Count: Codable, Sendable {
        public var query: String
        public var count: Int
        public var unit: String
    }

    static func segments(_ snippet: SearchSnippet?) -> [Segment] {
        (snippet?.segments ?? []).map { Segment(text: $0.text, match: $0.isMatch ? true : nil) }
    }

    public static func thread(_ hit: ThreadSearchHit, muted: Set<String>) -> ThreadHit {
        ThreadHit(thread: ThreadJSON.thread(hit.thread, muted: muted.contains(hit.thread.id)), matchedEmailId: hit.emailId, highlight: segments(hit.highlight))
    }

    public static func message(_ hit: MessageSearchHit) -> MessageHit {
        let email = hit.email
        return MessageHit(
            id: email.id, threadId: email.threadId, accountId: email.accountId, messageId: email.messageId,
            from: ThreadJSON.person(email.from), to: email.toAddresses.map(ThreadJSON.person),
            cc: email.ccAddresses.map(ThreadJSON.person), subject: email.subject,
            date: ThreadJSON.iso(email.dateSent ?? email.dateReceived), isRead: email.isRead, isStarred: email.isStarred,
            hasAttachments: email.hasAttachments, category: email.aiCategory, highlight: segments(hit.highlight))
    }
}
