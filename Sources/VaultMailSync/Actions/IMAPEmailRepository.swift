import Foundation
import VaultMailCore
import VaultMailIMAP

/// `EmailRepository` whose actions happen on the IMAP server first (AC-F-08): reads come
/// from the local store; archive, delete, move, read/unread and star run the IMAP commands
/// (`\Seen`, `\Flagged`, MOVE or COPY + `\Deleted` + UID EXPUNGE) on the account's pooled
/// connection and change the local store only after the server said OK.
///
/// - **archive**: the inbox copies move to the Archive folder; an account with no Archive
///   but an All Mail folder (Gmail) moves them there, which removes the Inbox label.
/// - **delete**: every copy outside Trash moves to Trash; mail already only in Trash is
///   deleted for good (`IMAPConnection.deleteMessages`: `\Deleted` + UID EXPUNGE; without
///   UIDPLUS only flagged `\Deleted`, since a plain EXPUNGE would take other clients' too).
/// - **move**: copies in real folders (not Sent, Drafts, All Mail, Starred) move to the target.
/// - **read / star**: the flag is stored on every copy (starring marks the latest email).
///
/// When a step fails, the steps already done are undone where possible (flags exactly,
/// moves back when the server reported COPYUID), the local store is left as it was, and a
/// `ServerActionError` says what failed and why. Once every step succeeded the action is done:
/// when the change here then fails (a full disk) or finds the conversation already gone (a
/// sync beside it removed it), `DoneOnServer` says so and the next sync catches up (issue 34).
/// New UIDs from COPYUID are recorded, so the next sync does not fetch moved mail again.
public struct IMAPEmailRepository: EmailRepository {
    /// The store alone (reads, and the local half of every action).
    public let local: any EmailRepository
    let syncStore: any SyncRepository
    let accounts: any AccountRepository
    let connections: IMAPConnectionPool
    /// Where actions wait while the server cannot be reached (`TriageServer`); nil: they fail.
    public let pendingChanges: (any PendingChangeRepository)?
    /// Tests only: runs between an action's server steps and its change here (a sync beside
    /// it, a disk filling up), to reproduce what a busy machine does at random.
    var afterServerSteps: (@Sendable () async -> Void)?

    /// - Parameters:
    ///   - local: the store's repository (reads, and the local half of every action).
    ///   - connections: the pool the sync engine uses (`SyncEmailsUseCase.connections`), so
    ///     actions and syncs of an account run one after the other.
    ///   - pendingChanges: where `Conversations` keeps actions while the server cannot be
    ///     reached (issue 29); nil to have them fail instead.
    public init(
        local: any EmailRepository, syncStore: any SyncRepository, accounts: any AccountRepository, connections: IMAPConnectionPool,
        pendingChanges: (any PendingChangeRepository)? = nil
    ) {
        self.local = local
        self.syncStore = syncStore
        self.accounts = accounts
        self.connections = connections
        self.pendingChanges = pendingChanges
    }

    // MARK: - Reads (the local store)

    public func getThreads(folderId: String, category: AICategory?, cursor: ThreadCursor?, limit: Int) async throws -> ThreadPage {
        try await local.getThreads(folderId: folderId, category: category, cursor: cursor, limit: limit)
    }

    public func getThreadsUnified(folderType: FolderType, category: AICategory?, cursor: ThreadCursor?, limit: Int) async throws -> ThreadPage {
        try await local.getThreadsUnified(folderType: folderType, category: category, cursor: cursor, limit: limit)
    }

    public func getUnreadCounts(folderId: String) async throws -> [AICategory?: Int] {
        try await local.getUnreadCounts(folderId: folderId)
    }

    public func getThreadCount(folderId: String) async throws -> Int {
        try await local.getThreadCount(folderId: folderId)
    }

    public func getUnreadCountsUnified(folderType: FolderType) async throws -> [AICategory?: Int] {
        try await local.getUnreadCountsUnified(folderType: folderType)
    }

    public func unreadThreadIds(in list: ConversationList, upTo: Date?) async throws -> [String] {
        try await local.unreadThreadIds(in: list, upTo: upTo)
    }

    public func getInboxUnreadCount() async throws -> Int { try await local.getInboxUnreadCount() }
    public func getFolders(accountId: String) async throws -> [Folder] { try await local.getFolders(accountId: accountId) }
    public func getFolder(id: String) async throws -> Folder? { try await local.getFolder(id: id) }
    public func getThread(id: String) async throws -> EmailThread? { try await local.getThread(id: id) }
    public func getEmail(id: String) async throws -> Email? { try await local.getEmail(id: id) }
    public func getEmails(threadId: String) async throws -> [Email] { try await local.getEmails(threadId: threadId) }
    public func getEmails(threadId: String, newest limit: Int) async throws -> (emails: [Email], older: Int) {
        try await local.getEmails(threadId: threadId, newest: limit)
    }
    public func getEmails(ids: [String]) async throws -> [Email] { try await local.getEmails(ids: ids) }
    public func getAttachments(emailId: String) async throws -> [Attachment] { try await local.getAttachments(emailId: emailId) }
    public func getOutboxEmails(accountId: String?) async throws -> [Email] { try await local.getOutboxEmails(accountId: accountId) }

    public func existingThreadIds(among ids: Set<String>) async throws -> Set<String> {
        try await local.existingThreadIds(among: ids)
    }

    public func threadIds(withPrefix prefix: String, limit: Int) async throws -> [String] {
        try await local.threadIds(withPrefix: prefix, limit: limit)
    }

    public func emailIds(withPrefix prefix: String, limit: Int) async throws -> [String] {
        try await local.emailIds(withPrefix: prefix, limit: limit)
    }

    // MARK: - Writes from sync and compose (local only)

    public func saveFolders(_ folders: [Folder]) async throws { try await local.saveFolders(folders) }

    @discardableResult
    public func saveEmails(_ incoming: [IncomingEmail]) async throws -> [Email] { try await local.saveEmails(incoming) }

    // MARK: - Actions (server first)

    public func archiveThread(id: String) async throws {
        try await onThread(id, action: "archive thread \(id)") { try $0.steps(for: .archive) } local: { repository in
            try await repository.archiveThread(id: id)
        }
    }

    public func deleteThread(id: String) async throws {
        try await onThread(id, action: "delete thread \(id)") { try $0.steps(for: .delete) } local: { repository in
            try await repository.deleteThread(id: id)
        }
    }

    public func moveThread(id: String, toFolderId: String) async throws {
        try await onThread(id, action: "move thread \(id)") { try $0.steps(for: .move(toFolderId: toFolderId)) } local: { repository in
            try await repository.moveThread(id: id, toFolderId: toFolderId)
        }
    }

    public func toggleReadStatus(threadId: String) async throws {
        guard let thread = try await local.getThread(id: threadId) else { throw RepositoryError.threadNotFound(id: threadId) }
        try await setThreadRead(id: threadId, isRead: thread.unreadCount > 0)
    }

    public func toggleStarStatus(threadId: String) async throws {
        guard let thread = try await local.getThread(id: threadId) else { throw RepositoryError.threadNotFound(id: threadId) }
        try await setThreadStarred(id: threadId, isStarred: !thread.isStarred)
    }

    public func setThreadRead(id: String, isRead: Bool) async throws {
        try await onThread(id, action: "mark thread \(id) \(isRead ? "read" : "unread")") { try $0.steps(for: isRead ? .read : .unread) } local: { repository in
            try await repository.setThreadRead(id: id, isRead: isRead)
        }
    }

    public func setThreadStarred(id: String, isStarred: Bool) async throws {
        try await onThread(id, action: "\(isStarred ? "star" : "unstar") thread \(id)") { try $0.steps(for: isStarred ? .star : .unstar) } local: { repository in
            try await repository.setThreadStarred(id: id, isStarred: isStarred)
        }
    }

    public func setEmailsRead(ids: [String], isRead: Bool) async throws {
        let found = Dictionary(try await local.getEmails(ids: ids).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let missing = ids.first(where: { found[$0] == nil }) { throw RepositoryError.emailNotFound(id: missing) }
        let emails = ids.compactMap { found[$0] }
        for (accountId, group) in Dictionary(grouping: emails, by: \.accountId).sorted(by: { $0.key < $1.key }) {
            let groupIds = group.map(\.id)
            try await perform(
                action: "mark \(group.count) email(s) \(isRead ? "read" : "unread")", accountId: accountId, emails: group
            ) { context in
                try context.flagSteps(.seen, set: isRead, on: context.emailIds)
            } local: { repository in
                try await repository.setEmailsRead(ids: groupIds, isRead: isRead)
            }
        }
    }

    // MARK: - Running an action

    private func onThread(
        _ threadId: String, action: String,
        plan: @escaping @Sendable (ActionContext) throws -> [ServerStep],
        local change: @escaping @Sendable (any EmailRepository) async throws -> Void
    ) async throws {
        guard let thread = try await local.getThread(id: threadId) else { throw RepositoryError.threadNotFound(id: threadId) }
        let emails = try await local.getEmails(threadId: threadId)
        try await perform(action: action, accountId: thread.accountId, emails: emails, plan: plan, local: change)
    }

    /// Plans the server steps, runs them on the account's connection, then (only if all
    /// succeeded) applies the local change and records new UIDs, all before the connection
    /// is handed to the next operation, so no sync runs in between.
    private func perform(
        action: String, accountId: String, emails: [Email],
        plan: @escaping @Sendable (ActionContext) throws -> [ServerStep],
        local change: @escaping @Sendable (any EmailRepository) async throws -> Void
    ) async throws {
        guard let account = try await accounts.getAccount(id: accountId) else {
            throw ServerActionError(kind: .accountNotFound, action: action, accountName: accountId)
        }
        let local = self.local
        let syncStore = self.syncStore
        do {
            try await run(action: action, account: account, emails: emails, local: local, syncStore: syncStore, plan: plan, change: change)
        } catch let error as IMAPError {
            // The connection could not be opened (or checked): nothing was sent.
            throw ServerActionError(kind: .server, action: action, accountName: account.name, mailbox: error.mailbox, underlying: error)
        } catch let error as SyncError {
            throw ServerActionError(kind: .server, action: action, accountName: account.name, underlying: error)
        }
    }

    private func run(
        action: String, account: Account, emails: [Email], local: any EmailRepository, syncStore: any SyncRepository,
        plan: @escaping @Sendable (ActionContext) throws -> [ServerStep],
        change: @escaping @Sendable (any EmailRepository) async throws -> Void
    ) async throws {
        try await connections.withConnection(for: account, reuse: .checkFirst) { imap in
            let context = ActionContext(
                account: account, folders: try await local.getFolders(accountId: account.id),
                emails: emails, links: try await syncStore.links(emailIds: emails.map(\.id)))
            let steps: [ServerStep]
            do {
                steps = try plan(context)
            } catch let unknown as UnknownUID {
                throw ServerActionError(kind: .uidUnknown, action: action, accountName: account.name, mailbox: unknown.mailbox)
            }
            let learned = try await ServerStepRunner(imap: imap, action: action, account: account, syncStore: syncStore).run(steps)
            await afterServerSteps?()
            // Done on the server (issue 34): whatever happens here now, the action is done. A
            // full disk, or a sync of another process (the daemon) that removed the conversation
            // first, leaves this computer's copy to the next sync.
            do {
                try await change(local)
                // Only messages still here learn their new UIDs.
                let present = try await syncStore.existingEmailIds(among: Array(Set(learned.map(\.emailId))))
                try await syncStore.setLinkUIDs(learned.filter { present.contains($0.emailId) })
            } catch {
                throw DoneOnServer(action: action, underlying: error)
            }
        }
    }
}
