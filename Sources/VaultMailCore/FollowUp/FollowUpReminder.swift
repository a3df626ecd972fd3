import Foundation

/// "Remind me if nobody answers" on mail the user sent (issue 33): the conversation, the sent
/// message it waits on, and when to remind.
public struct FollowUpReminder: Sendable, Codable, Equatable {
    public var threadId: String
    /// The user's message an answer is awaited to.
    public var emailId: String
    public var subject: String
    /// When the sent message went.
    public var sentAt: Date
    /// When to remind, unless someone answered by then.
    public var due: Date

    public init(threadId: String, emailId: String, subject: String, sentAt: Date, due: Date) {
        self.threadId = threadId
        self.emailId = emailId
        self.subject = subject
        self.sentAt = sentAt
        self.due = due
    }
}
