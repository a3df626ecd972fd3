import Foundation

/// Everything a message to be sent is made of, before it becomes RFC 5322 bytes
/// (`MessageBuilder`). Bcc recipients are envelope recipients only: no header names them.
public struct OutgoingMessage: Sendable, Hashable {
    /// With angle brackets: `<abc@example.com>`. Stays the same across draft versions and
    /// send attempts, so a copy found in Sent can be recognised.
    public var messageId: String
    public var date: Date
    /// The zone the Date header is written in.
    public var timeZone: TimeZone
    public var from: Participant
    public var to: [Participant]
    public var cc: [Participant]
    public var bcc: [Participant]
    public var subject: String
    /// The plain-text body; line ends may be LF or CRLF.
    public var textBody: String
    /// An HTML alternative: with it the body becomes `multipart/alternative`.
    public var htmlBody: String?
    /// The Message-ID answered, with angle brackets.
    public var inReplyTo: String?
    /// The References chain, oldest first, with angle brackets.
    public var references: [String]
    public var attachments: [DraftAttachment]
    /// The sender's `Autocrypt:` header (issue 32); nil: none is written.
    public var autocrypt: AutocryptHeader?
    /// `Autocrypt-Gossip:` headers, written only inside an encrypted message's protected part.
    public var gossip: [AutocryptHeader] = []

    public init(
        messageId: String,
        date: Date,
        timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current,
        from: Participant,
        to: [Participant] = [],
        cc: [Participant] = [],
        bcc: [Participant] = [],
        subject: String,
        textBody: String,
        htmlBody: String? = nil,
        inReplyTo: String? = nil,
        references: [String] = [],
        attachments: [DraftAttachment] = []
    ) {
        self.messageId = messageId
        self.date = date
        self.timeZone = timeZone
        self.from = from
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.inReplyTo = inReplyTo
        self.references = references
        self.attachments = attachments
    }

    /// Every address the message goes to (To, Cc and Bcc), each once, in that order.
    public var envelopeRecipients: [String] {
        var seen = Set<String>()
        return (to + cc + bcc).map(\.email).filter { seen.insert($0.lowercased()).inserted }
    }

    /// A new Message-ID under the sender's domain (`<uuid@domain>`).
    public static func makeMessageId(senderAddress: String) -> String {
        let domain = senderAddress.split(separator: "@").last.map(String.init) ?? "vaultmail.invalid"
        let safeDomain = domain.isEmpty || domain.contains(where: { !$0.isASCII || $0.isWhitespace || $0 == ">" })
            ? "vaultmail.invalid" : domain
        return "<\(UUID().uuidString.lowercased())@\(safeDomain)>"
    }
}
