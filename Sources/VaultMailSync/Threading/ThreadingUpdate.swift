/// Where one email sits in its conversation.
public struct ThreadAssignment: Sendable, Hashable {
    /// The store's id of the email.
    public var emailId: String
    public var messageId: String
    /// The conversation's id: SHA-256 of the account id and the Message-ID at the top of the
    /// conversation's tree (which may be a message the account does not have).
    public var threadId: String
    /// The Message-ID of the nearest ancestor the account has, or nil for a top-level message.
    public var parentMessageId: String?

    public init(emailId: String, messageId: String, threadId: String, parentMessageId: String?) {
        self.emailId = emailId
        self.messageId = messageId
        self.threadId = threadId
        self.parentMessageId = parentMessageId
    }
}

/// Conversations that ceased to exist because every email of theirs now belongs to another:
/// the store moves their emails (already listed in `ThreadingUpdate.assignments`) and drops
/// the old thread rows.
public struct ThreadMerge: Sendable, Hashable {
    /// The thread id that no longer has any email.
    public var from: String
    /// The thread id its emails moved to.
    public var into: String

    public init(from: String, into: String) {
        self.from = from
        self.into = into
    }
}

/// What one `ConversationThreader.add(_:)` changed.
public struct ThreadingUpdate: Sendable, Hashable {
    /// Every email that is new, or whose thread or parent changed, in no particular order.
    public var assignments: [ThreadAssignment]
    /// Threads folded into others, e.g. when a late parent joins two conversations.
    public var merges: [ThreadMerge]

    public init(assignments: [ThreadAssignment] = [], merges: [ThreadMerge] = []) {
        self.assignments = assignments
        self.merges = merges
    }
}
