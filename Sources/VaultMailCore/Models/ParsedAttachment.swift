/// One attachment (or inline media part) of a parsed message: metadata only; the content is
/// fetched on demand by `partId`.
public struct ParsedAttachment: Sendable, Hashable {
    /// The name the message gives (Content-Disposition `filename`, else Content-Type `name`),
    /// RFC 2231 / RFC 2047 decoded; nil when it gives none. `suggestedFilename` is never nil.
    public var filename: String?
    /// `type/subtype` in lowercase, e.g. `image/png`.
    public var mimeType: String
    /// The size of the content after its transfer encoding is undone, in bytes.
    public var size: Int
    /// Content-ID without angle brackets, for `cid:` references from HTML.
    public var contentId: String?
    /// True when the part is shown in the body rather than listed as an attachment: an image
    /// whose Content-ID the HTML body uses (whatever its disposition says); see "Attachments"
    /// in docs/mime-and-threading.md.
    public var isInline: Bool
    /// The IMAP part number: "1", "2", "1.3" (RFC 3501 §6.4.5).
    public var partId: String
    /// For an attached message (`message/rfc822`): its decoded subject, used to name it.
    public var embeddedSubject: String?

    public init(
        filename: String?,
        mimeType: String,
        size: Int,
        contentId: String? = nil,
        isInline: Bool = false,
        partId: String,
        embeddedSubject: String? = nil
    ) {
        self.filename = filename
        self.mimeType = mimeType
        self.size = size
        self.contentId = contentId
        self.isInline = isInline
        self.partId = partId
        self.embeddedSubject = embeddedSubject
    }

    /// A name to show and save under: the declared name; else, for an attached message, its
    /// subject + ".eml"; a delivery report's status "delivery-status.txt"; else
    /// "part-<partId>" with an extension for common types.
    public var suggestedFilename: String {
        if let filename, !filename.trimmingWhitespace().isEmpty { return filename }
        if let reportName = Self.reportNames[mimeType] { return reportName }
        if mimeType.hasPrefix("message/") {
            let subject = (embeddedSubject ?? "").trimmingWhitespace()
            let safe = String(subject.map { $0 == "/" || $0 == "\\" ? "_" : $0 }.prefix(80))
            return (safe.isEmpty ? "message-\(partId)" : safe) + ".eml"
        }
        return "part-\(partId)" + (Self.extensions[mimeType].map { "." + $0 } ?? "")
    }

    /// The machine-readable parts of delivery and read reports (RFC 3464, 6533, 8098), named as
    /// what they are rather than as a message.
    private static let reportNames: [String: String] = [
        "message/delivery-status": "delivery-status.txt", "message/global-delivery-status": "delivery-status.txt",
        "message/disposition-notification": "disposition-notification.txt",
        "message/global-disposition-notification": "disposition-notification.txt",
    ]

    private static let extensions: [String: String] = [
        "text/rfc822-headers": "txt", "message/global-headers": "txt",
        "text/plain": "txt", "text/html": "html", "text/calendar": "ics", "text/csv": "csv",
        "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp",
        "application/pdf": "pdf", "application/zip": "zip", "application/pgp-signature": "asc",
        "application/pkcs7-signature": "p7s", "application/octet-stream": "bin",
    ]
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks (no Foundation).
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
