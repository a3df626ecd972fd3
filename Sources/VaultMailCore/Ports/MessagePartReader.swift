/// Reads one part of a raw RFC 5322 message back out by the part number the parser gave it
/// (`ParsedAttachment.partId`, `Attachment.partId`).
///
/// The store keeps every message's raw source and only the metadata of its attachments: an
/// attachment download or a `cid:` image is this call on the stored source. Never throws and
/// never traps; safe to call from many tasks at once.
public protocol MessagePartReader: Sendable {
    /// The part's content with its transfer encoding undone (base64, quoted-printable), or nil when the message has no such part.
    /// For an attached message (message/rfc822) the whole embedded message.
    func content(ofPart partId: String, in raw: [UInt8]) -> [UInt8]?
}
