import Foundation

/// What the categorizer reads about one email: who wrote it to whom, its subject and opening
/// text, the header fields that say how it was sent, and whose mailbox it is in.
public struct CategorizationInput: Sendable, Hashable {
    public var emailId: String
    public var accountId: String
    public var threadId: String
    public var from: Participant
    public var to: [Participant]
    public var cc: [Participant]
    /// The decoded subject.
    public var subject: String
    /// The start of the body as plain text (the snippet, or the first `openingLength`
    /// characters of the body).
    public var openingText: String
    /// The end of the plain body, whitespace made one space (at most `closingLength`
    /// characters): where bulk mail puts its footer — who paid for it, why you get it.
    public var closingText: String
    /// Header fields by lowercased name (the first occurrence, unfolded): `list-id`,
    /// `list-unsubscribe`, `precedence`, `auto-submitted`, … (`MessageHeaderFields`).
    public var headers: [String: String]
    /// True when the message answers another (In-Reply-To or References).
    public var isReply: Bool
    /// The account's own addresses, lowercased: mail from them teaches nothing, mail to them
    /// is addressed to the user.
    public var ownAddresses: Set<String>
    /// Who decided the email's category so far; nil when no one has.
    public var currentSource: CategorySource?

    /// How much of the body the categorizer reads.
    public static let openingLength = 500
    /// How much of the body's end the header rules read.
    public static let closingLength = 1_000

    public init(emailId: String, accountId: String, threadId: String, from: Participant, to: [Participant] = [],
                cc: [Participant] = [], subject: String, openingText: String = "", closingText: String = "", headers: [String: String] = [:],
                isReply: Bool = false, ownAddresses: Set<String> = [], currentSource: CategorySource? = nil) {
        self.emailId = emailId
        self.accountId = accountId
        self.threadId = threadId
        self.from = from
        self.to = to
        self.cc = cc
        self.subject = subject
        self.openingText = String(openingText.prefix(Self.openingLength))
        self.closingText = String(closingText.suffix(Self.closingLength))
        self.headers = headers
        self.isReply = isReply
        self.ownAddresses = Set(ownAddresses.map { $0.lowercased() })
        self.currentSource = currentSource
    }

    /// The opening text of a body: the body's first `openingLength` characters with runs of
    /// whitespace made one space, else the snippet.
    public static func openingText(body: String?, snippet: String?) -> String {
        if let body, !body.isEmpty {
            var out = ""
            var length = 0  // characters in `out`, counted here: String.count walks the string
            var lastWasSpace = false
            for character in body {
                if length >= openingLength { break }
                if character.isWhitespace {
                    if !lastWasSpace && length > 0 {
                        out.append(" ")
                        length += 1
                    }
                    lastWasSpace = true
                } else {
                    out.append(character)
                    length += 1
                    lastWasSpace = false
                }
            }
            if !out.isEmpty { return out }
        }
        return snippet ?? ""
    }

    /// The closing text of a body: its last `closingLength` characters with runs of
    /// whitespace made one space ("" when there is no plain body).
    public static func closingText(body: String?) -> String {
        guard let body else { return "" }
        let collapsed = body.suffix(closingLength * 2).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return String(collapsed.suffix(closingLength))
    }

    /// What a correction of this email teaches and later mail is matched by: its mailing list
    /// (`list:<List-Id>`) when it came through one, else its sender's address, lowercased.
    public var teachingKey: String {
        if let value = headers["list-id"], let id = CategorySignals.listIdentifier(value) { return Self.listKey(id) }
        return senderAddress
    }

    /// The key a mailing list is taught under.
    public static func listKey(_ listId: String) -> String { "list:" + listId.lowercased() }

    /// The sender's address, lowercased.
    public var senderAddress: String { from.email.lowercased() }

    /// The part of the sender's address after the `@`, lowercased ("" when there is none).
    public var senderDomain: String {
        guard let at = senderAddress.lastIndex(of: "@") else { return "" }
        return String(senderAddress[senderAddress.index(after: at)...])
            .trimmingCharacters(in: CharacterSet(charactersIn: ">. "))
    }

    /// The part of the sender's address before the `@`, lowercased.
    public var senderLocalPart: String {
        guard let at = senderAddress.lastIndex(of: "@") else { return senderAddress }
        return String(senderAddress[..<at])
    }

    /// True when one of the user's own addresses is among the To recipients.
    public var isAddressedToUser: Bool {
        to.contains { ownAddresses.contains($0.email.lowercased()) }
    }

    /// True when the user wrote it.
    public var isFromUser: Bool { ownAddresses.contains(senderAddress) }

    /// The text the model reads: the subject and the opening of the body. (The sender's
    /// name and domain are left out: measured on the evaluation set, they pulled mail from
    /// people towards the social examples.)
    public var modelText: String {
        Self.modelText(subject: subject, opening: openingText)
    }

    /// The short text of an email the model reads: its subject and the first 300 characters of
    /// its opening text (`openingText(body:snippet:)`). Smart replies look up the user's past
    /// replies by the same text.
    public static func modelText(subject: String, opening: String) -> String {
        "\(subject). \(opening.prefix(300))"
    }
}
