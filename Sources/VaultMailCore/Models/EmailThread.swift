import Foundation

/// A conversation: emails linked by References / In-Reply-To, with aggregates the store
/// keeps right as emails arrive, change and leave. Named so it never shadows `Foundation.Thread`.
public struct EmailThread: Sendable, Codable, Hashable, Identifiable {
    public var id: String
    public var accountId: String
    public var subject: String
    public var latestDate: Date
    public var messageCount: Int
    public var unreadCount: Int
    public var isStarred: Bool
    public var hasAttachments: Bool
    public var snippet: String?
    /// Participants as JSON text; read it with `participantList`.
    public var participants: String?
    public var aiCategory: String?

    public init(
        id: String,
        accountId: String,
        subject: String,
        latestDate: Date,
        messageCount: Int = 0,
        unreadCount: Int = 0,
        isStarred: Bool = false,
        hasAttachments: Bool = false,
        snippet: String? = nil,
        participants: String? = nil,
        aiCategory: String? = nil
    ) {
        self.id = id
        self.accountId = accountId
        self.subject = subject
        self.latestDate = latestDate
        self.messageCount = messageCount
        self.unreadCount = unreadCount
        self.isStarred = isStarred
        self.hasAttachments = hasAttachments
        self.snippet = snippet
        self.participants = participants
        self.aiCategory = aiCategory
    }

    public var isUnread: Bool { unreadCount > 0 }

    /// The decoded participants; empty when the JSON is missing or malformed (E-09).
    public var participantList: [Participant] { Participant.decode(from: participants) }

    public var category: AICategory? { aiCategory.flatMap(AICategory.init(rawValue:)) }

    /// What a thread row shows as its sender line: "John, Sarah (3)" for a conversation of
    /// three messages, "Unknown" when no participant can be read (AC-U-03, E-09).
    public var senderSummary: String { senderSummary(me: []) }

    /// The sender line, with the account holder's own addresses (`me`) shown as "me". One
    /// participant gets the whole name ("The Weekly Bit"); several their first names.
    public func senderSummary(me: Set<String>) -> String {
        let people = participantList
        guard !people.isEmpty else { return "Unknown" }
        let mine = Set(me.map { $0.lowercased() })
        let names = people.prefix(2).map { person -> String in
            if mine.contains(person.email.lowercased()) { return "me" }
            let name = person.displayName
            guard people.count > 1 else { return name }
            return name.split(separator: " ").first.map(String.init) ?? name
        }
        let joined = names.joined(separator: ", ")
        return messageCount > 1 ? "\(joined) (\(messageCount))" : joined
    }

    /// The id of the account's conversation whose root (top of the reply tree) is
    /// `rootMessageId`: the same for mail synced and mail written here.
    public static func stableID(accountId: String, rootMessageId: String) -> String {
        StableID.make(accountId, "\u{1F}thread\u{1F}", rootMessageId)
    }
}
