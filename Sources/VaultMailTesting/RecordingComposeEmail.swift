import Foundation
import VaultMailCore

/// A `ComposeEmailUseCase` that records drafts and sends, and fails on demand.
public actor RecordingComposeEmail: ComposeEmailUseCase {
    public struct Draft: Sendable, Equatable {
        public var draftId: String?
        public var accountId: String
        public var threadId: String?
        public var toAddresses: [String]
        public var ccAddresses: [String]
        public var bccAddresses: [String]
        public var subject: String
        public var bodyPlain: String
        public var inReplyTo: String?
        public var references: String?
        public var attachmentCount: Int

        public init(draftId: String?, accountId: String, threadId: String?, toAddresses: [String], ccAddresses: [String],
                    bccAddresses: [String], subject: String, bodyPlain: String, inReplyTo: String?, references: String?,
                    attachmentCount: Int) {
            self.draftId = draftId
            self.accountId = accountId
            self.threadId = threadId
            self.toAddresses = toAddresses
            self.ccAddresses = ccAddresses
            self.bccAddresses = bccAddresses
            self.subject = subject
            self.bodyPlain = bodyPlain
            self.inReplyTo = inReplyTo
            self.references = references
            self.attachmentCount = attachmentCount
        }
    }

    public private(set) var drafts: [Draft] = []
    public private(set) var queued: [String] = []
    public private(set) var sent: [String] = []
    public var failSave = false
    public var failSend = false

    public struct Failure: Error, CustomStringConvertible {
        public var description: String { "smtp.example.com:465 did not answer" }
    }

    public init() {}

    public func setFailures(save: Bool = false, send: Bool = false) {
        failSave = save
        failSend = send
    }

    public func saveDraft(
        draftId: String?, accountId: String, threadId: String?, toAddresses: [String], ccAddresses: [String],
        bccAddresses: [String], subject: String, bodyPlain: String, inReplyTo: String?, references: String?,
        attachments: [DraftAttachment]
    ) async throws -> String {
        if failSave { throw Failure() }
        drafts.append(Draft(draftId: draftId, accountId: accountId, threadId: threadId, toAddresses: toAddresses,
                            ccAddresses: ccAddresses, bccAddresses: bccAddresses, subject: subject, bodyPlain: bodyPlain,
                            inReplyTo: inReplyTo, references: references, attachmentCount: attachments.count))
        return "draft-\(drafts.count)"
    }

    public func queueForSending(emailId: String) async throws {
        queued.append(emailId)
    }

    public func executeSend(emailId: String) async throws {
        if failSend { throw Failure() }
        sent.append(emailId)
    }
}
