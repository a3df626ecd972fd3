/// Metadata of one attachment of an email; the content is fetched on demand.
public struct Attachment: Sendable, Codable, Hashable, Identifiable {
    public var id: String
    public var emailId: String
    public var filename: String
    public var mimeType: String
    public var sizeBytes: Int
    public var contentId: String?
    public var isInline: Bool
    /// The MIME part number ("2", "1.3") to fetch the body from the server.
    public var partId: String?

    public init(
        id: String? = nil,
        emailId: String,
        filename: String,
        mimeType: String,
        sizeBytes: Int,
        contentId: String? = nil,
        isInline: Bool = false,
        partId: String? = nil
    ) {
        self.id = id ?? StableID.make(emailId, "\u{1F}att\u{1F}", partId ?? filename)
        self.emailId = emailId
        self.filename = filename
        self.mimeType = mimeType
        self.sizeBytes = sizeBytes
        self.contentId = contentId
        self.isInline = isInline
        self.partId = partId
    }
}
