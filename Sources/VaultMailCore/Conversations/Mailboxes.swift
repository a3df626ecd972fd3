import Foundation

/// The application service for what the mailboxes hold (ARCHITECTURE.md, "The application
/// layer"): an account's folders, a folder's list of conversations (or every account's folders
/// of one type, merged), unread counts, the outbox, and one conversation's or message's header
/// data. The `vaultmail` tool and the web app both read through it, so a list, a count or a
/// folder is read one way whichever door shows it (issue 28).
///
/// Every failure comes out as a `ThreadListError` (through `FetchThreadsUseCase`).
public struct Mailboxes: Sendable {
    private let emails: any EmailRepository
    private let lists: FetchThreadsUseCase

    /// - Parameter emails: the store's mail (reads only).
    public init(emails: any EmailRepository) {
        self.emails = emails
        lists = FetchThreadsUseCase(repository: emails)
    }

    // MARK: Folders

    /// The account's folders, in the store's order.
    public func folders(accountId: String) async throws(ThreadListError) -> [Folder] {
        try await lists.fetchFolders(accountId: accountId)
    }

    /// The folder `id`, or nil when there is none.
    public func folder(id: String) async throws(ThreadListError) -> Folder? {
        try await read { try await emails.getFolder(id: id) }
    }

    // MARK: Lists and counts

    /// A page of a folder's conversations, newest first. `accountId` must own the folder
    /// (`ThreadListError.folderNotFound` otherwise).
    public func threads(accountId: String, folderId: String, category: AICategory? = nil, cursor: ThreadCursor? = nil,
                        limit: Int = AppConstants.threadListPageSize) async throws(ThreadListError) -> ThreadPage {
        try await lists.fetchThreads(accountId: accountId, folderId: folderId, category: category, cursor: cursor, pageSize: limit)
    }

    /// A page of every account's conversations in folders of `type`, merged by date.
    public func threads(ofType type: FolderType, category: AICategory? = nil, cursor: ThreadCursor? = nil,
                        limit: Int = AppConstants.threadListPageSize) async throws(ThreadListError) -> ThreadPage {
        try await lists.fetchUnifiedThreads(folderType: type, category: category, cursor: cursor, pageSize: limit)
    }

    /// Unread conversations per category in a folder (`nil` key: all categories).
    public func unreadCounts(folderId: String) async throws(ThreadListError) -> [AICategory?: Int] {
        try await lists.fetchUnreadCounts(folderId: folderId)
    }

    /// Unread conversations per category across every account's folders of `type`.
    public func unreadCounts(ofType type: FolderType) async throws(ThreadListError) -> [AICategory?: Int] {
        try await lists.fetchUnreadCountsUnified(folderType: type)
    }

    /// The unread conversations of a list, newest first: what "Mark all as read" covers
    /// (`Conversations.markAllRead(in:upTo:)`), here for a face that names them first (the
    /// web app's toast and its undo window). With `upTo`, none whose latest mail in the list is
    /// newer than that (the newest the list showed).
    public func unreadThreadIds(in list: ConversationList, upTo: Date? = nil) async throws(ThreadListError) -> [String] {
        do {
            return try await emails.unreadThreadIds(in: list, upTo: upTo)
        } catch RepositoryError.folderNotFound(let id) {
            throw .folderNotFound(id: id)
        } catch {
            throw .fetchFailed(underlying: error)
        }
    }

    /// Every conversation in a folder, read or not: what Drafts shows beside its name (AC-U-05).
    public func conversationCount(folderId: String) async throws(ThreadListError) -> Int {
        try await read { try await emails.getThreadCount(folderId: folderId) }
    }

    /// Unread conversations in every inbox: the badge.
    public func inboxUnreadCount() async throws(ThreadListError) -> Int {
        try await read { try await emails.getInboxUnreadCount() }
    }

    /// Mail queued, being sent, or failed (the Outbox), of one account or of all.
    public func outbox(accountId: String?) async throws(ThreadListError) -> [Email] {
        try await lists.fetchOutboxEmails(accountId: accountId)
    }

    // MARK: One conversation, one message

    /// The conversation's header data (subject, participants, counts), or nil when it is not stored.
    public func thread(id: String) async throws(ThreadListError) -> EmailThread? {
        try await read { try await emails.getThread(id: id) }
    }

    /// The message, or nil when it is not stored.
    public func email(id: String) async throws(ThreadListError) -> Email? {
        try await read { try await emails.getEmail(id: id) }
    }

    /// The message's attachments (inline parts included), as stored.
    public func attachments(emailId: String) async throws(ThreadListError) -> [Attachment] {
        try await read { try await emails.getAttachments(emailId: emailId) }
    }

    /// The ids of the conversations whose id starts with `prefix`, any case (an id typed
    /// short), at most `limit`: two tell that the prefix is not unique.
    public func threadIds(withPrefix prefix: String, limit: Int = 2) async throws(ThreadListError) -> [String] {
        try await read { try await emails.threadIds(withPrefix: prefix, limit: limit) }
    }

    /// The ids of the messages whose id starts with `prefix`, as `threadIds(withPrefix:)`.
    public func emailIds(withPrefix prefix: String, limit: Int = 2) async throws(ThreadListError) -> [String] {
        try await read { try await emails.emailIds(withPrefix: prefix, limit: limit) }
    }

    private func read<T>(_ body: () async throws -> T) async throws(ThreadListError) -> T {
        do {
            return try await body()
        } catch let error as ThreadListError {
            throw error
        } catch {
            throw .fetchFailed(underlying: error)
        }
    }
}
