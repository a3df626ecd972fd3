import VaultMailNotifications

/// What the open pages are told as it happens (server-sent events).
public enum WebEvent: Sendable, Equatable {
    /// The store changed: lists, counts and the open conversation are read again.
    case changed
    /// New mail for the in-app banner.
    case newMail([NewMailSummary])
    /// Whether the mail servers can be reached; the message says which cannot and why, in a
    /// person's words; `detail` is the technical detail behind it.
    case connection(problem: String?, detail: String? = nil)
    /// Something the open pages should say once (a change kept offline that could not be done).
    case notice(String)
    /// Keeps idle streams open (a comment line); pages ignore it.
    case ping
}

/// One new message as the in-app banner shows it.
public struct NewMailSummary: Sendable, Equatable, Codable {
    public var threadId: String
    public var sender: String
    public var subject: String
    public var preview: String

    public init(threadId: String, sender: String, subject: String, preview: String) {
        self.threadId = threadId
        self.sender = sender
        self.subject = subject
        self.preview = preview
    }
}

extension NewMailSummary {
    /// The in-app banner of what the notification engine decided to announce.
    public init(content: NotificationContent) {
        self.init(threadId: content.threadIdentifier, sender: content.title,
                  subject: content.subtitle.isEmpty ? "(no subject)" : content.subtitle, preview: content.body)
    }
}
