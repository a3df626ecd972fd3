import Foundation

/// An action on a conversation that is already shown on this computer and waits to be done on
/// the mail server, kept while the server could not be reached (issue 29). Kept in the store,
/// in the order the person acted (`id`), until it has been replayed once on the server.
public struct PendingChange: Sendable, Equatable, Identifiable {
    /// The order of the changes: replayed lowest first. Zero until the store assigned one.
    public var id: Int64
    public var accountId: String
    public var threadId: String
    /// The conversation's subject, for the words that name it.
    public var subject: String
    public var action: ConversationAction
    /// The target folder's name for a move, for the words that name it.
    public var folderName: String?
    /// The server copies of the conversation's messages (folder and UID) as they were when the
    /// person acted: what the change is carried out on, since the store shows it done already.
    public var copies: [EmailFolder]
    public var createdAt: Date
    /// Attempts that the server refused (not counting those it could not be reached for).
    public var attempts: Int
    /// What the server said at the last refused attempt.
    public var lastError: String?

    public init(
        id: Int64 = 0, accountId: String, threadId: String, subject: String, action: ConversationAction,
        folderName: String? = nil, copies: [EmailFolder], createdAt: Date, attempts: Int = 0, lastError: String? = nil
    ) {
        self.id = id
        self.accountId = accountId
        self.threadId = threadId
        self.subject = subject
        self.action = action
        self.folderName = folderName
        self.copies = copies
        self.createdAt = createdAt
        self.attempts = attempts
        self.lastError = lastError
    }

    /// “Quarterly plan”, or “(no subject)”.
    public var quotedSubject: String {
        let subject = subject.trimmingCharacters(in: .whitespacesAndNewlines)
        return "“\(subject.isEmpty ? "(no subject)" : subject)”"
    }

    /// What was done, in a person's words: "Archived “Quarterly plan”", "Moved “…” to Projects".
    public var summary: String {
        Self.summary(action, what: quotedSubject, folderName: folderName)
    }

    /// "Archived 3 conversations", "Marked “Lunch” read".
    static func summary(_ action: ConversationAction, what: String, folderName: String?) -> String {
        switch action {
        case .archive: "Archived \(what)"
        case .delete: "Deleted \(what)"
        case .move: "Moved \(what)" + (folderName.map { " to \($0)" } ?? "")
        case .read: "Marked \(what) read"
        case .unread: "Marked \(what) unread"
        case .star: "Starred \(what)"
        case .unstar: "Unstarred \(what)"
        case .snooze: "Snoozed \(what)"
        case .unsnooze: "Unsnoozed \(what)"
        }
    }
}

/// How a change kept for the server ended when it was replayed.
public enum ReplayOutcome: Sendable, Equatable {
    /// Done on the server (or found done already: a message deleted or moved there meanwhile).
    case done
    /// It cannot be done any more (a move to a folder that no longer exists); `problem` says
    /// so in a person's words and what became of the conversation here.
    case notPossible(problem: String)
}
