import Crypto
import Foundation

/// What a raw RFC 5322 message contains, as well as it could be read.
///
/// A `MessageParser` never fails: a message it cannot read fully still yields what it could
/// (headers, or the raw text as the body), and `problems` says, in words, what went wrong.
/// Text is always UTF-8: encoded words (RFC 2047), parameter encodings (RFC 2231), transfer
/// encodings and body charsets are decoded before the values land here.
public struct ParsedMessage: Sendable, Hashable {
    /// The Message-ID with its angle brackets (`<abc@example.com>`), or nil when the message
    /// has none or it could not be read. `stableMessageId` is never nil.
    public var messageId: String?
    /// `messageId` when there is one, else `ParsedMessage.synthesizedMessageId(rawMessage:)`:
    /// the id to store the message under.
    public var stableMessageId: String
    /// The first msg-id of In-Reply-To, with angle brackets.
    public var inReplyTo: String?
    /// The msg-ids of References, oldest first, with angle brackets.
    public var references: [String]
    /// The decoded subject; empty when there is none.
    public var subject: String
    public var from: [Participant]
    public var to: [Participant]
    public var cc: [Participant]
    public var bcc: [Participant]
    public var replyTo: [Participant]
    /// The Date header, nil when absent or unreadable.
    public var date: Date?
    /// The text/plain body parts (RFC 8621 §4.1.4 `textBody`), joined; nil when there are none.
    public var textPlain: String?
    /// The text/html body parts (RFC 8621 §4.1.4 `htmlBody`), joined; nil when there are none.
    public var textHTML: String?
    /// A plain-text preview (at most `Snippet.maximumLength` characters, whitespace collapsed)
    /// from the plain body, else from the HTML body with tags, scripts and styles removed.
    public var snippet: String?
    /// Parts that are not body text, in message order (RFC 8621 §4.1.4 `attachments`).
    public var attachments: [ParsedAttachment]
    /// True when the server's filter tagged the message (`X-Spam-Flag: YES`, `X-Spam-Status: Yes, …`).
    public var isSpamTagged: Bool
    /// Raw (unfolded) values of the headers in `ParsedMessage.keptHeaderNames`, keyed by the
    /// lowercased name; the first occurrence wins.
    public var keptHeaders: [String: String]
    /// The values of every `Autocrypt:` header (unfolded), in order: the sender's key
    /// (Autocrypt Level 1, issue 32), read into `AutocryptPeerState` when the message is stored.
    public var autocryptHeaders: [String]
    /// The values of every `Autocrypt-Gossip:` header (unfolded): others' keys, read from the
    /// entity inside an encrypted message when it is decrypted (`OpenPGPReading`).
    public var autocryptGossipHeaders: [String]
    /// What could not be read, in words (for logs and a "shown as best we could" note);
    /// empty for a well-formed message.
    public var problems: [String]

    public init(
        messageId: String? = nil,
        stableMessageId: String,
        inReplyTo: String? = nil,
        references: [String] = [],
        subject: String = "",
        from: [Participant] = [],
        to: [Participant] = [],
        cc: [Participant] = [],
        bcc: [Participant] = [],
        replyTo: [Participant] = [],
        date: Date? = nil,
        textPlain: String? = nil,
        textHTML: String? = nil,
        snippet: String? = nil,
        attachments: [ParsedAttachment] = [],
        isSpamTagged: Bool = false,
        keptHeaders: [String: String] = [:],
        autocryptHeaders: [String] = [],
        autocryptGossipHeaders: [String] = [],
        problems: [String] = []
    ) {
        self.messageId = messageId
        self.stableMessageId = stableMessageId
        self.inReplyTo = inReplyTo
        self.references = references
        self.subject = subject
        self.from = from
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.replyTo = replyTo
        self.date = date
        self.textPlain = textPlain
        self.textHTML = textHTML
        self.snippet = snippet
        self.attachments = attachments
        self.isSpamTagged = isSpamTagged
        self.keptHeaders = keptHeaders
        self.autocryptHeaders = autocryptHeaders
        self.autocryptGossipHeaders = autocryptGossipHeaders
        self.problems = problems
    }

    /// Headers kept verbatim in `keptHeaders` because later stages (unsubscribe, notification
    /// filters, importance) read them.
    public static let keptHeaderNames: [String] = [
        "list-id", "list-unsubscribe", "list-unsubscribe-post", "list-post", "precedence",
        "auto-submitted", "x-spam-flag", "x-spam-status", "x-spam-score", "importance",
        "x-priority",
    ]

    /// The List-Id header, when the message came through a mailing list.
    public var listId: String? { keptHeaders["list-id"] }

    /// The sender: the first From address, if any.
    public var sender: Participant? { from.first }

    /// A Message-ID for a message that has none, derived from its header block so the same
    /// message always gets the same id, wherever and however often it is fetched.
    ///
    /// The header block is every byte before the first empty line (or the whole message when
    /// there is none), with line endings made LF so CRLF and LF copies agree. The id is
    /// `<` + the first 32 hex digits of its SHA-256 + `@synthesized.vaultmail>`. Two different
    /// messages without Message-ID get the same id only when their header blocks are equal
    /// byte for byte (same Date, From, Subject, Received trail …), i.e. when they are copies.
    public static func synthesizedMessageId(rawMessage raw: [UInt8]) -> String {
        var header: [UInt8] = []
        header.reserveCapacity(min(raw.count, 8192))
        var previous: UInt8 = 0x0A
        var index = 0
        while index < raw.count {
            var byte = raw[index]
            if byte == 0x0D {
                // CRLF and a lone CR both end a line.
                if index + 1 < raw.count, raw[index + 1] == 0x0A { index += 1 }
                byte = 0x0A
            }
            if byte == 0x0A, previous == 0x0A, !header.isEmpty { break }
            header.append(byte)
            previous = byte
            index += 1
        }
        let hex = SHA256.hash(data: header).prefix(16).hexString
        return "<\(hex)@synthesized.vaultmail>"
    }
}
