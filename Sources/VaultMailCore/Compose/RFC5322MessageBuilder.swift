import Crypto
import Foundation

/// Our own small RFC 5322 / MIME writer (no C library): the headers a client sends, RFC 2047
/// encoded words for non-ASCII names and subjects, 7bit, quoted-printable or base64 bodies,
/// `multipart/alternative` for an HTML body, `multipart/mixed` with base64 attachments named
/// with RFC 2231 when needed. CRLF line ends; headers folded at 78 characters where possible,
/// never a line over 998. Deterministic: boundaries derive from the Message-ID, so the same
/// message always gives the same bytes.
///
/// Layout: `multipart/mixed` (when there are attachments) ⊃ `multipart/alternative` (when
/// there is HTML) ⊃ `text/plain` and `text/html`. Bcc is never written.
public struct RFC5322MessageBuilder: MessageBuilder {
    public init() {}

    public func build(_ message: OutgoingMessage) throws -> [UInt8] {
        let head = try headers(message, subject: message.subject)
        let body = content(message)
        return Array(head.utf8) + body.headers + MIMEEncoding.crlf + body.content
    }

    /// The message's header lines (Bcc never written), `subject` as its Subject (none when
    /// empty), up to and with MIME-Version; the addresses checked.
    func headers(_ message: OutgoingMessage, subject: String) throws -> String {
        try EmailAddress.validate(message.from.email, field: "From")
        for (field, list) in [("To", message.to), ("Cc", message.cc), ("Bcc", message.bcc)] {
            for participant in list { try EmailAddress.validate(participant.email, field: field) }
        }
        var head = ""
        head += MIMEEncoding.header("Date", [Self.rfc5322Date(message.date, in: message.timeZone)])
        head += MIMEEncoding.header("From", MIMEEncoding.addressTokens([message.from]))
        if !message.to.isEmpty { head += MIMEEncoding.header("To", MIMEEncoding.addressTokens(message.to)) }
        if !message.cc.isEmpty { head += MIMEEncoding.header("Cc", MIMEEncoding.addressTokens(message.cc)) }
        head += Self.subjectHeader(subject)
        head += MIMEEncoding.header("Message-ID", [Self.normalizedId(message.messageId)])
        if let inReplyTo = message.inReplyTo.flatMap(MessageIDs.parseFirst) {
            head += MIMEEncoding.header("In-Reply-To", [inReplyTo])
        }
        let references = message.references.flatMap { MessageIDs.parseList($0) }
        if !references.isEmpty { head += MIMEEncoding.header("References", references) }
        if let autocrypt = message.autocrypt { head += MIMEEncoding.header("Autocrypt", autocrypt.tokens) }
        head += "MIME-Version: 1.0\r\n"
        return head
    }

    /// The Subject header line, or nothing for an empty subject.
    static func subjectHeader(_ subject: String) -> String {
        guard !subject.isEmpty else { return "" }
        let tokens = MIMEEncoding.isPlainUnstructured(subject)
            ? subject.split(separator: " ").map(String.init)
            : MIMEEncoding.encodedWords(subject)
        return MIMEEncoding.header("Subject", tokens)
    }

    /// The message's content as one MIME entity: the text, its HTML alternative, the
    /// attachments. `forSigning`: text that transport could change (trailing white space, a
    /// line starting "From ") is quoted-printable, as RFC 3156 §3 asks of signed content.
    func content(_ message: OutgoingMessage, forSigning: Bool = false) -> Part {
        var boundaries = BoundarySource(messageId: Self.normalizedId(message.messageId))
        var body = textPart(message.textBody, subtype: "plain", forSigning: forSigning)
        if let html = message.htmlBody {
            body = multipart("alternative", [body, textPart(html, subtype: "html", forSigning: forSigning)], boundary: boundaries.next())
        }
        if !message.attachments.isEmpty {
            body = multipart("mixed", [body] + message.attachments.map(attachmentPart), boundary: boundaries.next())
        }
        return body
    }

    // MARK: Parts

    /// A MIME entity: its header lines (each ending in CRLF) and its content.
    struct Part {
        var headers: [UInt8]
        var content: [UInt8]
        /// Content that may contain any text (7bit): a boundary must be checked against it.
        var isFreeText: Bool
    }

    private func textPart(_ text: String, subtype: String, forSigning: Bool) -> Part {
        let lines = MIMEEncoding.crlfLines(text)
        var (encoding, content) = MIMEEncoding.encodeText(lines)
        if forSigning, encoding == "7bit", MIMEEncoding.mayChangeInTransit(lines) {
            (encoding, content) = ("quoted-printable", MIMEEncoding.quotedPrintable(lines))
        }
        let headers = "Content-Type: text/\(subtype); charset=utf-8\r\nContent-Transfer-Encoding: \(encoding)\r\n"
        return Part(headers: Array(headers.utf8), content: content, isFreeText: encoding == "7bit")
    }

    private func attachmentPart(_ attachment: DraftAttachment) -> Part {
        let type = Self.validMimeType(attachment.mimeType)
        let name = attachment.filename.isEmpty ? "attachment" : attachment.filename
        var headers = MIMEEncoding.header("Content-Type", [type + ";"] + MIMEEncoding.parameterTokens("name", name))
        headers += MIMEEncoding.header("Content-Disposition", ["attachment;"] + MIMEEncoding.parameterTokens("filename", name))
        headers += "Content-Transfer-Encoding: base64\r\n"
        return Part(headers: Array(headers.utf8), content: MIMEEncoding.base64(Array(attachment.data)), isFreeText: false)
    }

    /// Parts separated by `boundary`: each part's content is followed by CRLF before the
    /// delimiter, so a part's last line break is its own (RFC 2046 §5.1.1).
    func multipart(_ subtype: String, _ parts: [Part], boundary candidate: String, parameters: String = "") -> Part {
        var boundary = candidate
        var attempt = 0
        while parts.contains(where: { $0.isFreeText && Self.contains($0.content, "--" + boundary) }) {
            attempt += 1
            boundary = candidate + "_\(attempt)"
        }
        let delimiter = Array("--\(boundary)".utf8)
        var content: [UInt8] = []
        content.reserveCapacity(parts.reduce(0) { $0 + $1.headers.count + $1.content.count + 100 })
        for part in parts {
            content += delimiter + MIMEEncoding.crlf
            content += part.headers + MIMEEncoding.crlf
            content += part.content
            content += MIMEEncoding.crlf
        }
        content += delimiter + Array("--".utf8) + MIMEEncoding.crlf
        let headers = "Content-Type: multipart/\(subtype);\(parameters)\r\n boundary=\"\(boundary)\"\r\n"
        return Part(headers: Array(headers.utf8), content: content, isFreeText: false)
    }

    // MARK: Helpers

    /// Boundaries from the Message-ID: `=_vm_` + 24 hex digits, one per multipart level.
    /// `=_` never occurs in quoted-printable or base64 output.
    struct BoundarySource {
        let messageId: String
        var count = 0

        mutating func next() -> String {
            count += 1
            return "=_vm_" + String(SHA256.hash(data: Array((messageId + "/boundary/\(count)").utf8)).hexString.prefix(24))
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, haystack.count >= pattern.count else { return false }
        var index = 0
        while index <= haystack.count - pattern.count {
            if haystack[index] == pattern[0], Array(haystack[index..<index + pattern.count]) == pattern { return true }
            index += 1
        }
        return false
    }

    /// `type/subtype` in lowercase when it is one, else `application/octet-stream`.
    static func validMimeType(_ mimeType: String) -> String {
        let lowered = mimeType.trimmingWhitespace().lowercased()
        let parts = lowered.split(separator: "/", omittingEmptySubsequences: false)
        let tokenCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&-^_.+")
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(tokenCharacters.contains) }) else {
            return "application/octet-stream"
        }
        return lowered
    }

    /// The id with angle brackets and nothing else.
    static func normalizedId(_ id: String) -> String {
        MessageIDs.parseFirst(id) ?? "<\(MessageIDs.bare(id))>"
    }

    /// `Thu, 15 Jan 2026 12:00:00 +0000` (RFC 5322 §3.3), in `timeZone`.
    public static func rfc5322Date(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let offset = timeZone.secondsFromGMT(for: date) / 60
        let sign = offset < 0 ? "-" : "+"
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let zone = sign + two(abs(offset) / 60) + two(abs(offset) % 60)
        return "\(days[(parts.weekday ?? 1) - 1]), \(parts.day ?? 1) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(two(parts.hour ?? 0)):\(two(parts.minute ?? 0)):\(two(parts.second ?? 0)) \(zone)"
    }
}
