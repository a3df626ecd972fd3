import Foundation

/// A raw RFC 822 message for tests to deliver or append: the headers tests vary, in a fixed
/// order (From, To, Cc, Subject, Date, Message-ID, In-Reply-To, References, the extra headers,
/// MIME-Version and Content-Type), a blank line and the body, with CRLF line ends.
///
/// The body goes in as written (a multipart body joins its own lines with CRLF) and is followed
/// by one CRLF.
public struct TestMessage: Sendable {
    public var from: String
    public var to: String
    public var cc: String?
    public var subject: String
    public var date: Date
    /// The zone the Date header is written in.
    public var timeZone: TimeZone
    /// With its angle brackets: `<id@example.com>`.
    public var messageId: String
    public var inReplyTo: String?
    public var references: [String]
    /// Whole header lines (`List-Unsubscribe: <…>`), after the ones above.
    public var headers: [String]
    /// The Content-Type header, written with MIME-Version: 1.0; nil writes neither.
    public var contentType: String?
    public var body: String

    public init(
        from: String = "Grace <grace@example.com>", to: String = "Ada <ada@example.com>", cc: String? = nil,
        subject: String, date: Date = Date(), timeZone: TimeZone = .gmt,
        messageId: String = "<\(UUID().uuidString)@example.com>", inReplyTo: String? = nil, references: [String] = [],
        headers: [String] = [], contentType: String? = "text/plain; charset=utf-8", body: String = "Hello."
    ) {
        self.from = from
        self.to = to
        self.cc = cc
        self.subject = subject
        self.date = date
        self.timeZone = timeZone
        self.messageId = messageId
        self.inReplyTo = inReplyTo
        self.references = references
        self.headers = headers
        self.contentType = contentType
        self.body = body
    }

    /// The message as text.
    public var text: String {
        var lines = ["From: \(from)", "To: \(to)"]
        if let cc { lines.append("Cc: \(cc)") }
        lines += ["Subject: \(subject)", "Date: \(Self.rfc822Date(date, in: timeZone))", "Message-ID: \(messageId)"]
        if let inReplyTo { lines.append("In-Reply-To: \(inReplyTo)") }
        if !references.isEmpty { lines.append("References: " + references.joined(separator: " ")) }
        lines += headers
        if let contentType { lines += ["MIME-Version: 1.0", "Content-Type: \(contentType)"] }
        lines += ["", body, ""]
        return lines.joined(separator: "\r\n")
    }

    /// The message as bytes (UTF-8).
    public var data: Data { Data(text.utf8) }

    /// `date` as an RFC 822 Date header writes it: `Thu, 15 Jan 2026 12:00:00 +0000`.
    public static func rfc822Date(_ date: Date, in timeZone: TimeZone = .gmt) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
