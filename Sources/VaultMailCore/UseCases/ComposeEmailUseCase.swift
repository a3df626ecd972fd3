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
    /// a notification, NOTIF-06d), with `saveDraft`'s parameters: like `saveDraft`, but no copy
    /// goes to the server's Drafts folder first (issue 18: a send-now uploads no draft).
    func saveForSending(
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
    /// Puts a draft in the outbox (`sendState = queued`).
    func queueForSending(emailId: String) async throws
    /// Transmits a queued message now, skipping the undo delay.
    func executeSend(emailId: String) async throws
}

extension ComposeEmailUseCase {
    /// A composer that keeps no server copies of drafts saves the message as a draft.
    public func saveForSending(
        draftId: String?, accountId: String, threadId: String?, toAddresses: [String], ccAddresses: [String],
        bccAddresses: [String], subject: String, bodyPlain: String, inReplyTo: String?, references: String?,
        attachments: [DraftAttachment]
    ) async throws -> String {
        try await saveDraft(
            draftId: draftId, accountId: accountId, threadId: threadId, toAddresses: toAddresses, ccAddresses: ccAddresses,
            bccAddresses: bccAddresses, subject: subject, bodyPlain: bodyPlain, inReplyTo: inReplyTo, references: references,
            attachments: attachments)
    }
}
