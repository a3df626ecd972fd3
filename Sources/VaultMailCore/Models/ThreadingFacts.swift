import Foundation

/// What conversation threading needs of an email already stored: its ids, the msg-ids it
/// mentions, its date and the thread it is in.
public struct ThreadingFacts: Sendable, Hashable {
    public var emailId: String
    /// The Message-ID with angle brackets.
    public var messageId: String
    public var inReplyTo: String?
    /// The msg-ids of References, oldest first.
    public var references: [String]
    /// The Date header when there was one, else when the message was received.
    public var date: Date
    public var threadId: String

    public init(emailId: String, messageId: String, inReplyTo: String?, references: [String], date: Date, threadId: String) {
        self.emailId = emailId
        self.messageId = messageId
        self.inReplyTo = inReplyTo
        self.references = references
        self.date = date
        self.threadId = threadId
    }
}

/// An email that moves to another conversation (threads merged when a late parent arrives).
public struct ThreadChange: Sendable, Hashable {
    public var emailId: String
    public var threadId: String

    public init(emailId: String, threadId: String) {
        self.emailId = emailId
        self.threadId = threadId
    }
}

/// What one step of a folder sync writes at once: new emails (and new links of known ones),
/// conversations that merged, flags the server reported, and the checkpoint reached. Stored
/// in one transaction, so a sync interrupted after it resumes from `checkpoint` (E-01).
public struct SyncBatch: Sendable {
    public var folderId: String
    public var emails: [IncomingEmail]
    public var threadChanges: [ThreadChange]
    /// Flags of messages of `folderId`, by UID.
    public var flags: [ServerFlags]
    public var checkpoint: FolderSyncState?

    public init(
        folderId: String, emails: [IncomingEmail] = [], threadChanges: [ThreadChange] = [],
        flags: [ServerFlags] = [], checkpoint: FolderSyncState? = nil
    ) {
        self.folderId = folderId
        self.emails = emails
        self.threadChanges = threadChanges
        self.flags = flags
        self.checkpoint = checkpoint
    }
}
