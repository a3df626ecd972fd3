import Foundation

/// One message. `id` is the SHA-256 of account id + Message-ID, so the same message seen in
/// two folders (or two syncs) is one email; a *different* message that repeats a stored
/// Message-ID gets `stableID(accountId:messageId:contentFingerprint:)` instead (`EmailIdentity`).
public struct Email: Sendable, Codable, Hashable, Identifiable {
    public var id: String
    public var accountId: String
    public var threadId: String
    /// The Message-ID with its angle brackets, e.g. `<abc@example.com>`.
    public var messageId: String
    public var inReplyTo: String?
    /// The References header: Message-IDs separated by single spaces.
    public var references: String?
    public var fromAddress: String
    public var fromName: String?
    public var toAddresses: [Participant]
    public var ccAddresses: [Participant]
    public var bccAddresses: [Participant]
    public var subject: String
    public var bodyPlain: String?
    public var bodyHTML: String?
    /// A short plain-text preview of the body.
    public var snippet: String?
    public var dateReceived: Date
    public var dateSent: Date?
    public var isRead: Bool
    public var isStarred: Bool
    public var isDraft: Bool
    /// Set when the server's filter tagged the message (`X-Spam-Flag: YES`, `X-Spam-Status: Yes`).
    public var spamFlagged: Bool
    /// Raw value of an `AICategory`, or `nil` when unclassified.
    public var aiCategory: String?
    public var sendState: SendState
    public var sizeBytes: Int
    public var hasAttachments: Bool
    /// The types of the folders this email is linked to. Filled by the store when it reads
    /// an email; not a column of its own.
    public var folderTypes: Set<FolderType>

    public init(
        id: String? = nil,
        accountId: String,
        threadId: String,
        messageId: String,
        inReplyTo: String? = nil,
        references: String? = nil,
        fromAddress: String,
        fromName: String? = nil,
        toAddresses: [Participant] = [],
        ccAddresses: [Participant] = [],
        bccAddresses: [Participant] = [],
        subject: String,
        bodyPlain: String? = nil,
        bodyHTML: String? = nil,
        snippet: String? = nil,
        dateReceived: Date,
        dateSent: Date? = nil,
        isRead: Bool = false,
        isStarred: Bool = false,
        isDraft: Bool = false,
        spamFlagged: Bool = false,
        aiCategory: String? = nil,
        sendState: SendState = .none,
        sizeBytes: Int = 0,
        hasAttachments: Bool = false,
        folderTypes: Set<FolderType> = []
    ) {
        self.id = id ?? Email.stableID(accountId: accountId, messageId: messageId)
        self.accountId = accountId
        self.threadId = threadId
        self.messageId = messageId
        self.inReplyTo = inReplyTo
        self.references = references
        self.fromAddress = fromAddress
        self.fromName = fromName
        self.toAddresses = toAddresses
        self.ccAddresses = ccAddresses
        self.bccAddresses = bccAddresses
        self.subject = subject
        self.bodyPlain = bodyPlain
        self.bodyHTML = bodyHTML
        self.snippet = snippet
        self.dateReceived = dateReceived
        self.dateSent = dateSent
        self.isRead = isRead
        self.isStarred = isStarred
        self.isDraft = isDraft
        self.spamFlagged = spamFlagged
        self.aiCategory = aiCategory
        self.sendState = sendState
        self.sizeBytes = sizeBytes
        self.hasAttachments = hasAttachments
        self.folderTypes = folderTypes
    }

    /// The stable id: SHA-256 (hex) of account id + Message-ID.
    public static func stableID(accountId: String, messageId: String) -> String {
        StableID.make(accountId, messageId)
    }

    /// The id of a message whose Message-ID an email with other content already holds:
    /// SHA-256 (hex) of account id + Message-ID + its `EmailIdentity` content fingerprint, so
    /// every copy of that second message (in any folder) gets the same id too.
    public static func stableID(accountId: String, messageId: String, contentFingerprint: String) -> String {
        StableID.make(accountId, messageId, "\u{1F}content\u{1F}", contentFingerprint)
    }

    /// Spam when the server tagged it, or when the message sits only in spam folders
    /// (spec README: `email.isSpam`).
    public var isSpam: Bool {
        spamFlagged || (!folderTypes.isEmpty && folderTypes.allSatisfy { $0 == .spam })
    }

    public var category: AICategory? { aiCategory.flatMap(AICategory.init(rawValue:)) }

    /// The sender as a participant.
    public var from: Participant { Participant(name: fromName, email: fromAddress) }
}
