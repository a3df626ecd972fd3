import Foundation

/// An attachment's bytes, with what is known of it.
public struct AttachmentContent: Sendable {
    public var attachment: Attachment
    public var data: [UInt8]

    public init(attachment: Attachment, data: [UInt8]) {
        self.attachment = attachment
        self.data = data
    }
}

/// Why an attachment could not be read, saying what to do.
public enum AttachmentError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(emailId: String, attachmentId: String)
    case sourceMissing(emailId: String)
    case partMissing(filename: String)
    case storeFailed(String)

    public var description: String {
        switch self {
        case .notFound(let emailId, let attachmentId):
            "no attachment \(attachmentId.prefix(10)) in email \(emailId.prefix(10)); the message may have been deleted — reload the conversation"
        case .sourceMissing:
            "the message's source is not on this computer, so its attachments cannot be read; sync the account again"
        case .partMissing(let filename):
            "'\(filename)' could not be read out of the stored message (it may be damaged); open the message in another client"
        case .storeFailed(let reason):
            "the mail store could not be read: \(reason)"
        }
    }
}

/// Reads attachments and inline images out of the stored message source (AC-U-07).
public struct ReadAttachmentUseCase: Sendable {
    private let emails: any EmailRepository
    private let sources: any MessageSourceRepository
    private let parts: any MessagePartReader

    public init(emails: any EmailRepository, sources: any MessageSourceRepository, parts: any MessagePartReader) {
        self.emails = emails
        self.sources = sources
        self.parts = parts
    }

    /// One attachment of an email, by id.
    public func content(emailId: String, attachmentId: String) async throws(AttachmentError) -> AttachmentContent {
        let attachments = try await read { try await emails.getAttachments(emailId: emailId) }
        guard let attachment = attachments.first(where: { $0.id == attachmentId }) else {
            throw .notFound(emailId: emailId, attachmentId: attachmentId)
        }
        guard let raw = try await read({ try await sources.rawSource(emailId: emailId) }) else {
            throw .sourceMissing(emailId: emailId)
        }
        guard let partId = attachment.partId, let data = parts.content(ofPart: partId, in: raw) else {
            throw .partMissing(filename: attachment.filename)
        }
        return AttachmentContent(attachment: attachment, data: data)
    }

    /// An email's own files with their content, not the images its HTML shows inline (a
    /// draft synced from the server, taken in with its files).
    public func forwardable(emailId: String) async throws(AttachmentError) -> [DraftAttachment] {
        try await files(try await read({ try await emails.getAttachments(emailId: emailId) }).filter { !$0.isInline })
    }

    /// These attachments (of any emails) with their content, in this order: what a forward
    /// carries (`Compose.forwardedAttachments`).
    public func files(_ attachments: [Attachment]) async throws(AttachmentError) -> [DraftAttachment] {
        var files: [DraftAttachment] = []
        for attachment in attachments {
            let content = try await content(emailId: attachment.emailId, attachmentId: attachment.id)
            files.append(DraftAttachment(filename: attachment.filename, mimeType: attachment.mimeType, data: Data(content.data)))
        }
        return files
    }

    /// The email's parts that have a Content-ID (the images its HTML shows with `cid:`), by
    /// Content-ID; empty when there are none or the source is not stored.
    public func inlineParts(emailId: String, attachments: [Attachment]) async -> [String: AttachmentContent] {
        let referenced = attachments.filter { $0.contentId != nil && $0.partId != nil }
        guard !referenced.isEmpty, let raw = try? await sources.rawSource(emailId: emailId) else { return [:] }
        var found: [String: AttachmentContent] = [:]
        for attachment in referenced {
            guard let contentId = attachment.contentId, let partId = attachment.partId,
                  let data = parts.content(ofPart: partId, in: raw) else { continue }
            found[contentId] = AttachmentContent(attachment: attachment, data: data)
        }
        return found
    }

    private func read<T>(_ body: () async throws -> T) async throws(AttachmentError) -> T {
        do {
            return try await body()
        } catch {
            throw .storeFailed("\(error)")
        }
    }
}
