import Foundation

/// A message as it enters the store: the email, the folders it sits in (with UIDs), its
/// attachments and, when it was fetched from a server, its raw source.
public struct IncomingEmail: Sendable {
    public var email: Email
    public var links: [EmailFolder]
    public var attachments: [Attachment]
    public var rawSource: [UInt8]?
    /// What the message says of its sender's Autocrypt key (issue 32): the store updates the
    /// sender's `AutocryptPeerState` with it in the same write; nil for mail it must not learn
    /// from (the account's own).
    public var autocrypt: AutocryptReceipt?

    public init(email: Email, links: [EmailFolder], attachments: [Attachment] = [], rawSource: [UInt8]? = nil,
                autocrypt: AutocryptReceipt? = nil) {
        self.email = email
        self.links = links
        self.attachments = attachments
        self.rawSource = rawSource
        self.autocrypt = autocrypt
    }
}

/// Reading and changing mail in the local store (AC-U-13 … AC-U-16, NOTIF-16).
/// Thread lists are newest first by `latestDate`, then by id, with cursor pagination.
public protocol EmailRepository: Sendable {
    // MARK: Thread lists
    /// Threads with at least one email in the folder (Folder → EmailFolder → Email → Thread).
    func getThreads(folderId: String, category: AICategory?, cursor: ThreadCursor?, limit: Int) async throws -> ThreadPage
    /// Threads of every account with an email in a folder of `folderType` (the unified inbox).
    func getThreadsUnified(folderType: FolderType, category: AICategory?, cursor: ThreadCursor?, limit: Int) async throws -> ThreadPage
    /// Unread threads per category in a folder; the `nil` key counts all of them.
    func getUnreadCounts(folderId: String) async throws -> [AICategory?: Int]
    /// Unread threads per category across every account's folders of `folderType`.
    func getUnreadCountsUnified(folderType: FolderType) async throws -> [AICategory?: Int]
    /// Threads with an email in the folder, read or not (Drafts' count, AC-U-05).
    func getThreadCount(folderId: String) async throws -> Int
    /// Unread emails linked to at least one inbox folder, counted per email (NOTIF-16).
    func getInboxUnreadCount() async throws -> Int
    /// The unread threads of a list (those its unread counts count), newest first; with
    /// `upTo`, only those whose latest message in the list is no newer (a list as it was
    /// drawn: mail that arrived since stays out). Throws `RepositoryError.folderNotFound`.
    func unreadThreadIds(in list: ConversationList, upTo: Date?) async throws -> [String]

    // MARK: Lookups
    func getFolders(accountId: String) async throws -> [Folder]
    func getFolder(id: String) async throws -> Folder?
    func getThread(id: String) async throws -> EmailThread?
    func getEmail(id: String) async throws -> Email?
    /// The emails of a thread, oldest first; those that arrived in the same second in the order
    /// they were stored (a stable order: the sync stores new mail in UID order).
    func getEmails(threadId: String) async throws -> [Email]
    /// The newest `limit` emails of a thread in the order of `getEmails(threadId:)`, and how many
    /// older ones it has: a long conversation is read a page at a time (E-06).
    func getEmails(threadId: String, newest limit: Int) async throws -> (emails: [Email], older: Int)
    /// The emails with these ids that exist, with `folderTypes`, in no particular order.
    func getEmails(ids: [String]) async throws -> [Email]
    /// The attachments of an email, in message order.
    func getAttachments(emailId: String) async throws -> [Attachment]
    /// Emails being sent or waiting to be (`sendState ∈ {queued, sending, failed}`); all
    /// accounts when `accountId` is nil.
    func getOutboxEmails(accountId: String?) async throws -> [Email]
    /// Which of these thread ids still exist.
    func existingThreadIds(among ids: Set<String>) async throws -> Set<String>
    /// Thread ids starting with `prefix`, any case (at most `limit`): an id typed short.
    func threadIds(withPrefix prefix: String, limit: Int) async throws -> [String]
    /// Email ids starting with `prefix`, any case (at most `limit`).
    func emailIds(withPrefix prefix: String, limit: Int) async throws -> [String]

    // MARK: Thread actions
    func archiveThread(id: String) async throws
    func deleteThread(id: String) async throws
    func moveThread(id: String, toFolderId: String) async throws
    func toggleReadStatus(threadId: String) async throws
    func toggleStarStatus(threadId: String) async throws
    func setThreadRead(id: String, isRead: Bool) async throws
    func setThreadStarred(id: String, isStarred: Bool) async throws
    /// Sets the read flag of single emails.
    func setEmailsRead(ids: [String], isRead: Bool) async throws

    // MARK: Batch actions: each thread on its own; failures are reported, not thrown.
    func archiveThreads(ids: [String]) async -> BatchActionResult
    func deleteThreads(ids: [String]) async -> BatchActionResult
    func markThreadsRead(ids: [String]) async -> BatchActionResult
    func markThreadsUnread(ids: [String]) async -> BatchActionResult
    func starThreads(ids: [String], isStarred: Bool) async -> BatchActionResult
    func moveThreads(ids: [String], toFolderId: String) async -> BatchActionResult

    // MARK: Writes from sync and compose
    func saveFolders(_ folders: [Folder]) async throws
    /// Stores emails with their links and attachments and keeps thread aggregates right.
    /// An email already stored gains any new folder links. Returns the emails new to the
    /// store, with `folderTypes` filled.
    @discardableResult
    func saveEmails(_ incoming: [IncomingEmail]) async throws -> [Email]
}

extension EmailRepository {
    /// Counted a page at a time; a store counts in one query.
    public func getThreadCount(folderId: String) async throws -> Int {
        var count = 0
        var cursor: ThreadCursor?
        repeat {
            let page = try await getThreads(folderId: folderId, category: nil, cursor: cursor, limit: 500)
            count += page.threads.count
            cursor = page.hasMore ? page.nextCursor : nil
        } while cursor != nil
        return count
    }

    /// Every email of the thread, the older ones dropped; a store reads only the page.
    public func getEmails(threadId: String, newest limit: Int) async throws -> (emails: [Email], older: Int) {
        let all = try await getEmails(threadId: threadId)
        let older = max(0, all.count - limit)
        return (Array(all[older...]), older)
    }

    /// One `getEmail(id:)` per id; a store reads them at once.
    public func getEmails(ids: [String]) async throws -> [Email] {
        var emails: [Email] = []
        for id in ids {
            if let email = try await getEmail(id: id) { emails.append(email) }
        }
        return emails
    }

    /// Runs `action` for each id, collecting failures instead of stopping at the first.
    public func eachThread(
        _ ids: [String],
        isolation: isolated (any Actor)? = #isolation,
        _ action: (String) async throws -> Void
    ) async -> BatchActionResult {
        var result = BatchActionResult()
        for id in ids {
            do {
                try await action(id)
                result.succeeded.append(id)
            } catch {
                result.failed.append((id: id, error: error))
            }
        }
        return result
    }

    public func archiveThreads(ids: [String]) async -> BatchActionResult {
        await eachThread(ids) { try await archiveThread(id: $0) }
    }

    public func deleteThreads(ids: [String]) async -> BatchActionResult {
        await eachThread(ids) { try await deleteThread(id: $0) }
    }

    public func markThreadsRead(ids: [String]) async -> BatchActionResult {
        await eachThread(ids) { try await setThreadRead(id: $0, isRead: true) }
    }

    public func markThreadsUnread(ids: [String]) async -> BatchActionResult {
        await eachThread(ids) { try await setThreadRead(id: $0, isRead: false) }
    }

    public func starThreads(ids: [String], isStarred: Bool) async -> BatchActionResult {
        await eachThread(ids) { try await setThreadStarred(id: $0, isStarred: isStarred) }
    }

    public func moveThreads(ids: [String], toFolderId: String) async -> BatchActionResult {
        await eachThread(ids) { try await moveThread(id: $0, toFolderId: toFolderId) }
    }
}
