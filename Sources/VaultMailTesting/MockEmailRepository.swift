import Foundation
import VaultMailCore

/// An in-memory `EmailRepository` for tests of code above the store: it keeps folders,
/// emails and links, derives threads from them, records every call by name, and fails on
/// demand (a whole method, or actions on chosen threads).
public actor MockEmailRepository: EmailRepository {
    public private(set) var calls: [String] = []
    /// Every call whose name is here throws `injectedError`.
    public var failingMethods: Set<String> = []
    /// Actions on these threads throw `injectedError`.
    public var failingThreadIds: Set<String> = []
    public var injectedError: any Error = RepositoryError.storage("injected failure")

    private var folders: [String: Folder] = [:]
    private var emails: [String: Email] = [:]
    /// Each email's place in the order it was stored (the store's rowid).
    private var storedOrder: [String: Int] = [:]
    private var links: [String: [String: UInt32?]] = [:]
    private var attachments: [String: [Attachment]] = [:]
    private var threadMeta: [String: (subject: String, accountId: String)] = [:]

    public init() {}

    // MARK: Test controls

    public func failing(_ methods: String..., error: (any Error)? = nil) {
        failingMethods.formUnion(methods)
        if let error { injectedError = error }
    }

    public func failActions(onThreads ids: Set<String>) {
        failingThreadIds = ids
    }

    public func reset() {
        calls = []
        failingMethods = []
        failingThreadIds = []
    }

    private func record(_ name: String, thread: String? = nil) throws {
        calls.append(name)
        if failingMethods.contains(name) { throw injectedError }
        if let thread, failingThreadIds.contains(thread) { throw injectedError }
    }

    // MARK: Derived threads

    private func hydrate(_ email: Email) -> Email {
        var email = email
        email.folderTypes = Set((links[email.id] ?? [:]).keys.compactMap { folders[$0]?.folderType })
        return email
    }

    private func threadEmails(_ id: String) -> [Email] {
        emails.values.filter { $0.threadId == id }
            .sorted { ($0.dateReceived, storedOrder[$0.id] ?? 0) < ($1.dateReceived, storedOrder[$1.id] ?? 0) }
            .map(hydrate)
    }

    private func makeThread(_ id: String) -> EmailThread? {
        let members = threadEmails(id)
        guard let first = members.first, let last = members.last else { return nil }
        var seen = Set<String>()
        let people = members.compactMap { seen.insert($0.fromAddress.lowercased()).inserted ? $0.from : nil }
        return EmailThread(
            id: id, accountId: first.accountId, subject: threadMeta[id]?.subject ?? first.subject,
            latestDate: last.dateReceived, messageCount: members.count,
            unreadCount: members.filter { !$0.isRead }.count,
            isStarred: members.contains { $0.isStarred }, hasAttachments: members.contains { $0.hasAttachments },
            snippet: last.snippet, participants: Participant.encode(people), aiCategory: last.aiCategory)
    }

    private func page(_ predicate: (Email) -> Bool, category: AICategory?, cursor: ThreadCursor?, limit: Int) -> ThreadPage {
        let ids = Set(emails.values.filter { predicate(hydrate($0)) }.map(\.threadId))
        var threads = ids.compactMap(makeThread)
            .filter { category == nil || $0.aiCategory == category?.rawValue }
            .sorted { ($0.latestDate, $0.id) > ($1.latestDate, $1.id) }
        if let cursor {
            threads = threads.filter { ($0.latestDate, $0.id) < (cursor.date, cursor.threadId) }
        }
        let limit = max(1, limit)
        let hasMore = threads.count > limit
        let shown = Array(threads.prefix(limit))
        return ThreadPage(threads: shown, nextCursor: hasMore ? shown.last.map { ThreadCursor(date: $0.latestDate, threadId: $0.id) } : nil, hasMore: hasMore)
    }

    private func unreadCounts(_ predicate: (Email) -> Bool) -> [AICategory?: Int] {
        let ids = Set(emails.values.filter { predicate(hydrate($0)) }.map(\.threadId))
        var counts: [AICategory?: Int] = [nil: 0]
        for thread in ids.compactMap(makeThread) where thread.unreadCount > 0 {
            counts[thread.category ?? .uncategorized, default: 0] += 1
            counts[nil, default: 0] += 1
        }
        return counts
    }

    // MARK: EmailRepository

    public func getThreads(folderId: String, category: AICategory?, cursor: ThreadCursor?, limit: Int) async throws -> ThreadPage {
        try record("getThreads")
        guard folders[folderId] != nil else { throw RepositoryError.folderNotFound(id: folderId) }
        return page({ links[$0.id]?[folderId] != nil }, category: category, cursor: cursor, limit: limit)
    }

    public func getThreadsUnified(folderType: FolderType, category: AICategory?, cursor: ThreadCursor?, limit: Int) async throws -> ThreadPage {
        try record("getThreadsUnified")
        return page({ $0.folderTypes.contains(folderType) }, category: category, cursor: cursor, limit: limit)
    }

    public func getUnreadCounts(folderId: String) async throws -> [AICategory?: Int] {
        try record("getUnreadCounts")
        return unreadCounts { links[$0.id]?[folderId] != nil }
    }

    public func getUnreadCountsUnified(folderType: FolderType) async throws -> [AICategory?: Int] {
        try record("getUnreadCountsUnified")
        return unreadCounts { $0.folderTypes.contains(folderType) }
    }

    public func unreadThreadIds(in list: ConversationList, upTo: Date?) async throws -> [String] {
        try record("unreadThreadIds")
        let inList: (Email) -> Bool
        switch list {
        case .folder(let id, _):
            guard folders[id] != nil else { throw RepositoryError.folderNotFound(id: id) }
            inList = { [links] in links[$0.id]?[id] != nil }
        case .unified(let type, _):
            inList = { $0.folderTypes.contains(type) }
        }
        let ids = Set(emails.values.filter { inList(hydrate($0)) }.map(\.threadId))
        return ids.compactMap(makeThread)
            .filter { $0.unreadCount > 0 && (list.category == nil || $0.aiCategory == list.category?.rawValue) }
            .filter { thread in upTo.map { thread.latestDate <= $0 } ?? true }
            .sorted { ($0.latestDate, $0.id) > ($1.latestDate, $1.id) }
            .map(\.id)
    }

    public func getInboxUnreadCount() async throws -> Int {
        try record("getInboxUnreadCount")
        return emails.values.map(hydrate).filter { !$0.isRead && $0.folderTypes.contains(.inbox) }.count
    }

    public func getFolders(accountId: String) async throws -> [Folder] {
        try record("getFolders")
        return folders.values.filter { $0.accountId == accountId }.sorted { $0.path < $1.path }
    }

    public func getFolder(id: String) async throws -> Folder? {
        try record("getFolder")
        return folders[id]
    }

    public func getThread(id: String) async throws -> EmailThread? {
        try record("getThread")
        return makeThread(id)
    }

    public func getEmail(id: String) async throws -> Email? {
        try record("getEmail")
        return emails[id].map(hydrate)
    }

    public func getEmails(threadId: String) async throws -> [Email] {
        try record("getEmails")
        return threadEmails(threadId)
    }

    public func getAttachments(emailId: String) async throws -> [Attachment] {
        try record("getAttachments")
        return attachments[emailId] ?? []
    }

    public func getOutboxEmails(accountId: String?) async throws -> [Email] {
        try record("getOutboxEmails")
        return emails.values.filter { $0.sendState.isInOutbox && (accountId == nil || $0.accountId == accountId) }
            .sorted { $0.dateReceived < $1.dateReceived }.map(hydrate)
    }

    public func existingThreadIds(among ids: Set<String>) async throws -> Set<String> {
        try record("existingThreadIds")
        return ids.filter { id in emails.values.contains { $0.threadId == id } }
    }

    public func threadIds(withPrefix prefix: String, limit: Int) async throws -> [String] {
        try record("threadIds")
        return Array(Set(emails.values.map(\.threadId)).filter { $0.lowercased().hasPrefix(prefix.lowercased()) }.sorted().prefix(limit))
    }

    public func emailIds(withPrefix prefix: String, limit: Int) async throws -> [String] {
        try record("emailIds")
        return Array(emails.keys.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }.sorted().prefix(limit))
    }

    private func requireThread(_ id: String) throws -> EmailThread {
        guard let thread = makeThread(id) else { throw RepositoryError.threadNotFound(id: id) }
        return thread
    }

    private func accountFolder(_ accountId: String, _ type: FolderType) -> Folder? {
        folders.values.first { $0.accountId == accountId && $0.folderType == type }
    }

    public func archiveThread(id: String) async throws {
        try record("archiveThread", thread: id)
        let thread = try requireThread(id)
        let archive = accountFolder(thread.accountId, .archive)
        guard archive != nil || accountFolder(thread.accountId, .allMail) != nil else {
            throw RepositoryError.missingFolder(accountId: thread.accountId, type: .archive)
        }
        for email in threadEmails(id) {
            let inboxIds = (links[email.id] ?? [:]).keys.filter { folders[$0]?.folderType == .inbox }
            guard !inboxIds.isEmpty else { continue }
            inboxIds.forEach { links[email.id]?[$0] = nil }
            if let archive { links[email.id, default: [:]][archive.id] = .some(nil) }
        }
    }

    public func deleteThread(id: String) async throws {
        try record("deleteThread", thread: id)
        let thread = try requireThread(id)
        guard let trash = accountFolder(thread.accountId, .trash) else {
            throw RepositoryError.missingFolder(accountId: thread.accountId, type: .trash)
        }
        for email in threadEmails(id) {
            if (links[email.id] ?? [:]).keys.allSatisfy({ $0 == trash.id }) {
                emails[email.id] = nil
                links[email.id] = nil
            } else {
                links[email.id] = [trash.id: nil]
            }
        }
    }

    public func moveThread(id: String, toFolderId: String) async throws {
        try record("moveThread", thread: id)
        _ = try requireThread(id)
        guard folders[toFolderId] != nil else { throw RepositoryError.folderNotFound(id: toFolderId) }
        for email in threadEmails(id) { links[email.id] = [toFolderId: nil] }
    }

    public func toggleReadStatus(threadId: String) async throws {
        try record("toggleReadStatus", thread: threadId)
        let thread = try requireThread(threadId)
        setRead(threadId, thread.unreadCount > 0)
    }

    public func toggleStarStatus(threadId: String) async throws {
        try record("toggleStarStatus", thread: threadId)
        let thread = try requireThread(threadId)
        setStarred(threadId, !thread.isStarred)
    }

    public func setThreadRead(id: String, isRead: Bool) async throws {
        try record("setThreadRead", thread: id)
        _ = try requireThread(id)
        setRead(id, isRead)
    }

    public func setThreadStarred(id: String, isStarred: Bool) async throws {
        try record("setThreadStarred", thread: id)
        _ = try requireThread(id)
        setStarred(id, isStarred)
    }

    public func setEmailsRead(ids: [String], isRead: Bool) async throws {
        try record("setEmailsRead")
        if let missing = ids.first(where: { emails[$0] == nil }) { throw RepositoryError.emailNotFound(id: missing) }
        ids.forEach { emails[$0]?.isRead = isRead }
    }

    private func setRead(_ threadId: String, _ isRead: Bool) {
        for email in threadEmails(threadId) { emails[email.id]?.isRead = isRead }
    }

    private func setStarred(_ threadId: String, _ isStarred: Bool) {
        let members = threadEmails(threadId)
        if isStarred, let last = members.last {
            emails[last.id]?.isStarred = true
        } else {
            members.forEach { emails[$0.id]?.isStarred = false }
        }
    }

    public func archiveThreads(ids: [String]) async -> BatchActionResult {
        calls.append("archiveThreads")
        return await eachThread(ids) { try await self.archiveThread(id: $0) }
    }

    public func deleteThreads(ids: [String]) async -> BatchActionResult {
        calls.append("deleteThreads")
        return await eachThread(ids) { try await self.deleteThread(id: $0) }
    }

    public func markThreadsRead(ids: [String]) async -> BatchActionResult {
        calls.append("markThreadsRead")
        return await eachThread(ids) { try await self.setThreadRead(id: $0, isRead: true) }
    }

    public func markThreadsUnread(ids: [String]) async -> BatchActionResult {
        calls.append("markThreadsUnread")
        return await eachThread(ids) { try await self.setThreadRead(id: $0, isRead: false) }
    }

    public func starThreads(ids: [String], isStarred: Bool) async -> BatchActionResult {
        calls.append("starThreads")
        return await eachThread(ids) { try await self.setThreadStarred(id: $0, isStarred: isStarred) }
    }

    public func moveThreads(ids: [String], toFolderId: String) async -> BatchActionResult {
        calls.append("moveThreads")
        return await eachThread(ids) { try await self.moveThread(id: $0, toFolderId: toFolderId) }
    }

    public func saveFolders(_ newFolders: [Folder]) async throws {
        try record("saveFolders")
        newFolders.forEach { folders[$0.id] = $0 }
    }

    @discardableResult
    public func saveEmails(_ incoming: [IncomingEmail]) async throws -> [Email] {
        try record("saveEmails")
        var new: [Email] = []
        for item in incoming {
            if emails[item.email.id] == nil {
                var email = item.email
                email.hasAttachments = email.hasAttachments || !item.attachments.isEmpty
                emails[email.id] = email
                storedOrder[email.id] = storedOrder.count
                attachments[email.id] = item.attachments
                if threadMeta[email.threadId] == nil { threadMeta[email.threadId] = (email.subject, email.accountId) }
                new.append(email)
            }
            for link in item.links { links[item.email.id, default: [:]][link.folderId] = .some(link.uid) }
        }
        return new.map(hydrate)
    }
}
