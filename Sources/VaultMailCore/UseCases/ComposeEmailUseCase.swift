import Foundation

/// A file to attach to a draft.
public struct DraftAttachment: Sendable, Hashable {
    public var filename: String
    public var mimeType: String
    public var data: Data

    public init(filename: String, mimeType: String, data: Data) {
        self.filename = filename
        self.mimeType = mimeType
        self.data = data
    }
}

/// Writing and sending mail: drafts, the outbox and undo send. The reply from a
/// notification uses it (NOTIF-06d); the SMTP-backed implementation comes with sending.
public protocol ComposeEmailUseCase: Sendable {
    /// Saves a draft (creating it when `draftId` is nil) and returns its email id.
    func saveDraft(
        draftId: String?,
        accountId: String,
        threadId: String?,
        toAddresses: [String],
        ccAddresses: [String],
        bccAddresses: [String],
        subject: String,
        bodyPlain: String,
        inReplyTo: String?,
        references: String?,
        attachments: [DraftAttachment]
    ) async throws -> String
    /// Saves a message that `queueForSending` + `executeSend` send right after (the reply from
    /// a notification, NOTIF-06d): like `saveDraft`, but no copy goes to the server's Drafts
    /// folder first (issue 18: a send-now uploads no draft).
    func saveForSending(_ content: DraftContent, attachments: [DraftAttachment]) async throws -> String
    /// Puts a draft in the outbox (`sendState = queued`).
    func queueForSending(emailId: String) async throws
    /// Transmits a queued message now, skipping the undo delay.
    func executeSend(emailId: String) async throws
}

extension ComposeEmailUseCase {
    /// A composer that keeps no server copies of drafts saves the message as a draft.
    public func saveForSending(_ content: DraftContent, attachments: [DraftAttachment]) async throws -> String {
        try await saveDraft(
            draftId: content.draftId, accountId: content.accountId, threadId: content.threadId, toAddresses: content.to,
            ccAddresses: content.cc, bccAddresses: content.bcc, subject: content.subject, bodyPlain: content.body,
            inReplyTo: content.inReplyTo, references: content.references, attachments: attachments)
    }
}
