import Foundation
import GRDB
import VaultMailCore

/// `EmailRepository` over the SQLite store. Reads and actions are local; the IMAP-backed
/// repository applies server actions first and then calls these.
public struct GRDBEmailRepository: EmailRepository {
    let database: AppDatabase
    var writer: any DatabaseWriter { database.writer }

    public init(database: AppDatabase) {
        self.database = database
    }

    // MARK: - Thread lists

    public func getThreads(folderId: String, category: AICategory?, cursor: ThreadCursor?, limit: Int) async throws -> ThreadPage {
        try await writer.read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM folder WHERE id = ?", arguments: [folderId]) != nil else {
                throw RepositoryError.folderNotFound(id: folderId)
            }
            return try Self.page(db, where: "tf.folderId = ?", [folderId], category: category, cursor: cursor, limit: limit)
        }
    }

    public func getThreadsUnified(folderType: FolderType, category: AICategory?, cursor: ThreadCursor?, limit: Int) async throws -> ThreadPage {
        try await writer.read { db in
            try Self.page(db, where: "tf.folderType = ?", [folderType.rawValue], category: category, cursor: cursor, limit: limit)
        }
    }

    /// One page, newest first, reading `threadFolder`'s (folder, latestDate, id) index.
    private static func page(
        _ db: Database, where condition: String, _ arguments: StatementArguments,
        category: AICategory?, cursor: ThreadCursor?, limit: Int
    ) throws -> ThreadPage {
        let limit = max(1, limit)
        var sql = "SELECT \(EmailThread.columns) FROM threadFolder tf JOIN thread t ON t.id = tf.threadId WHERE \(condition)"
        var arguments = arguments
        if let category {
            sql += " AND t.aiCategory = ?"
            arguments += [category.rawValue]
        }
        if let cursor {
            sql += " AND (tf.latestDate, tf.threadId) < (?, ?)"
            arguments += [cursor.date.millis, cursor.threadId]
        }
        sql += " ORDER BY tf.latestDate DESC, tf.threadId DESC LIMIT ?"
        // A thread in several folders of one type (the unified list) has a row per folder:
        // read further until the page is full of distinct threads or the rows run out.
        var threads: [EmailThread] = []
        var rowLimit = limit + 1
        while true {
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments + [rowLimit])
            var seen = Set<String>()
            threads = rows.map(EmailThread.init(row:)).filter { seen.insert($0.id).inserted }
            if threads.count > limit || rows.count < rowLimit { break }
            rowLimit *= 2
        }
        let hasMore = threads.count > limit
        if hasMore { threads.removeLast(threads.count - limit) }
        let next = hasMore ? threads.last.map { ThreadCursor(date: $0.latestDate, threadId: $0.id) } : nil
        return ThreadPage(threads: threads, nextCursor: next, hasMore: hasMore)
    }

    public func getUnreadCounts(folderId: String) async throws -> [AICategory?: Int] {
        try await writer.read { db in
            try Self.unreadCounts(db, index: "threadFolder_unread", count: "COUNT(*)", where: "folderId = ?", [folderId])
        }
    }

    public func getThreadCount(folderId: String) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM threadFolder WHERE folderId = ?", arguments: [folderId]) ?? 0
        }
    }

    public func getUnreadCountsUnified(folderType: FolderType) async throws -> [AICategory?: Int] {
        try await writer.read { db in
            try Self.unreadCounts(db, index: "threadFolder_unread_type", count: "COUNT(DISTINCT threadId)", where: "folderType = ?", [folderType.rawValue])
        }
    }

    /// Unread threads per category, from the partial index of unread thread–folder pairs (a
    /// thread in two folders of one type counts once: `count` says how to count).
    private static func unreadCounts(_ db: Database, index: String, count: String, where condition: String,
                                     _ arguments: StatementArguments) throws -> [AICategory?: Int] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT category, \(count) AS unread FROM threadFolder INDEXED BY \(index)
            WHERE isUnread = 1 AND \(condition) GROUP BY category
            """, arguments: arguments)
        var counts: [AICategory?: Int] = [nil: 0]
        for row in rows {
            let category = (row["category"] as String?).flatMap(AICategory.init(rawValue:)) ?? .uncategorized
            let unread: Int = row["unread"]
            counts[category, default: 0] += unread
            counts[nil, default: 0] += unread
        }
        return counts
    }

    public func unreadThreadIds(in list: ConversationList, upTo: Date?) async throws -> [String] {
        try await writer.read { db in
            // The rows the unread counts count (the same partial indexes), so "Mark all as
            // read" covers exactly what the list's count says.
            var sql: String
            var arguments: StatementArguments
            switch list {
            case .folder(let id, _):
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM folder WHERE id = ?", arguments: [id]) != nil else {
                    throw RepositoryError.folderNotFound(id: id)
                }
                sql = "SELECT threadId, MAX(latestDate) AS latest FROM threadFolder INDEXED BY threadFolder_unread WHERE isUnread = 1 AND folderId = ?"
                arguments = [id]
            case .unified(let type, _):
                sql = "SELECT threadId, MAX(latestDate) AS latest FROM threadFolder INDEXED BY threadFolder_unread_type WHERE isUnread = 1 AND folderType = ?"
                arguments = [type.rawValue]
            }
            if let category = list.category {
                sql += " AND category = ?"
                arguments += [category.rawValue]
            }
            if let upTo {
                sql += " AND latestDate <= ?"
                arguments += [upTo.millis]
            }
            sql += " GROUP BY threadId ORDER BY latest DESC, threadId DESC"
            return try String.fetchAll(db, sql: sql, arguments: arguments)
        }
    }

    public func getInboxUnreadCount() async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM email INDEXED BY email_inbox_unread
                WHERE isRead = 0 AND inboxLinks > 0
                AND accountId IN (SELECT id FROM account WHERE isActive = 1)
                """) ?? 0
        }
    }

    // MARK: - Lookups

    public func getFolders(accountId: String) async throws -> [Folder] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Folder.columns) FROM folder WHERE accountId = ? ORDER BY path",
                             arguments: [accountId]).map(Folder.init(row:))
        }
    }

    public func getFolder(id: String) async throws -> Folder? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Folder.columns) FROM folder WHERE id = ?", arguments: [id])
                .map(Folder.init(row:))
        }
    }

    public func getThread(id: String) async throws -> EmailThread? {
        try await writer.read { db in try Self.thread(db, id: id) }
    }

    static func thread(_ db: Database, id: String) throws -> EmailThread? {
        try Row.fetchOne(db, sql: "SELECT \(EmailThread.columns) FROM thread t WHERE t.id = ?", arguments: [id])
            .map(EmailThread.init(row:))
    }

    public func getEmail(id: String) async throws -> Email? {
        try await writer.read { db in
            try db.hydratedEmails(sql: "SELECT \(Email.columns) FROM email WHERE id = ?", arguments: [id]).first
        }
    }

    /// One query per 500 ids (`withdrawStaleNotifications` checks every delivered notification's email).
    public func getEmails(ids: [String]) async throws -> [Email] {
        try await writer.read { db in try db.emails(ids: Array(Set(ids))) }
    }

    public func getEmails(threadId: String) async throws -> [Email] {
        try await writer.read { db in
            try db.hydratedEmails(
                sql: "SELECT \(Email.columns) FROM email WHERE threadId = ? ORDER BY dateReceived, rowid",
                arguments: [threadId])
        }
    }

    public func getEmails(threadId: String, newest limit: Int) async throws -> (emails: [Email], older: Int) {
        try await writer.read { db in
            let newest = try db.hydratedEmails(
                sql: "SELECT \(Email.columns) FROM email WHERE threadId = ? ORDER BY dateReceived DESC, rowid DESC LIMIT ?",
                arguments: [threadId, max(0, limit)])
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM email WHERE threadId = ?", arguments: [threadId]) ?? 0
            return (newest.reversed(), max(0, total - newest.count))
        }
    }

    public func getAttachments(emailId: String) async throws -> [Attachment] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Attachment.columns) FROM attachment WHERE emailId = ? ORDER BY rowid",
                             arguments: [emailId]).map(Attachment.init(row:))
        }
    }

    public func getOutboxEmails(accountId: String?) async throws -> [Email] {
        try await writer.read { db in
            let states = "sendState IN ('queued', 'sending', 'failed')"
            if let accountId {
                return try db.hydratedEmails(
                    sql: "SELECT \(Email.columns) FROM email WHERE \(states) AND accountId = ? ORDER BY dateReceived",
                    arguments: [accountId])
            }
            return try db.hydratedEmails(
                sql: "SELECT \(Email.columns) FROM email WHERE \(states) ORDER BY dateReceived", arguments: [])
        }
    }

    public func existingThreadIds(among ids: Set<String>) async throws -> Set<String> {
        try await writer.read { db in
            var found = Set<String>()
            for chunk in Array(ids).chunked(500) {
                let existing = try String.fetchAll(
                    db, sql: "SELECT id FROM thread WHERE id IN (\(placeholders(chunk.count)))",
                    arguments: StatementArguments(chunk))
                found.formUnion(existing)
            }
            return found
        }
    }
}

extension GRDBEmailRepository {
    public func threadIds(withPrefix prefix: String, limit: Int) async throws -> [String] {
        try await idsWithPrefix("thread", prefix, limit)
    }

    public func emailIds(withPrefix prefix: String, limit: Int) async throws -> [String] {
        try await idsWithPrefix("email", prefix, limit)
    }

    private func idsWithPrefix(_ table: String, _ prefix: String, _ limit: Int) async throws -> [String] {
        let lower = prefix.lowercased()
        guard !lower.isEmpty, lower.allSatisfy(\.isHexDigit) else { return [] }
        return try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM \(table) WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                                arguments: [lower, lower + "g", limit])
        }
    }
}
