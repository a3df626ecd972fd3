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
