import Foundation

/// What a composer holds: the fields a person writes, as typed (addresses are checked when
/// the draft is saved or sent), and the headers that tie the message to its conversation.
public struct DraftContent: Sendable, Hashable {
    /// The draft's email id once it has been saved; nil for a message not saved yet.
    public var draftId: String?
    public var accountId: String
    public var to: [String] = []
    public var cc: [String] = []
    public var bcc: [String] = []
    public var subject: String = ""
    /// The text as written: plain text, or Markdown when `markdown` is set.
    public var body: String = ""
    /// Send the body as Markdown: plain text plus an HTML alternative rendered from it.
    public var markdown: Bool = false
    public var inReplyTo: String?
    public var references: String?
    public var threadId: String?
    /// The email whose attachments a forward carries (taken into the draft when it is first saved).
    public var forwardedEmailId: String?

    public init(accountId: String) {
        self.accountId = accountId
    }
}
