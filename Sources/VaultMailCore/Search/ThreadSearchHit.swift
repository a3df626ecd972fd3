/// A conversation that has at least one matching message.
public struct ThreadSearchHit: Sendable, Hashable {
    public var thread: EmailThread
    /// The newest matching message of the conversation.
    public var emailId: String
    /// Its text around the match, matches marked; nil when the query has no words.
    public var highlight: SearchSnippet?

    public init(thread: EmailThread, emailId: String, highlight: SearchSnippet?) {
        self.thread = thread
        self.emailId = emailId
        self.highlight = highlight
    }
}
