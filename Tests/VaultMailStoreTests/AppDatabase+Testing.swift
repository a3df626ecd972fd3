import GRDB
import VaultMailCore
@testable import VaultMailStore

extension AppDatabase {
    /// Removes the account's folder of a type, for tests of accounts that lack one.
    func dropFolder(type: FolderType, accountId: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM folder WHERE accountId = ? AND folderType = ?", arguments: [accountId, type.rawValue])
        }
    }

    /// Membership as the triggers keep it, next to the same facts computed by joins.
    func membershipDrift() throws -> (threadFolder: Int, inboxLinks: Int) {
        try writer.read { db in
            let threadFolder = try Int.fetchOne(db, sql: """
                SELECT (SELECT COUNT(*) FROM (
                    SELECT folderId, threadId, folderType, latestDate, emailCount FROM threadFolder
                    EXCEPT
                    SELECT ef.folderId, e.threadId, f.folderType, t.latestDate, COUNT(*)
                    FROM emailFolder ef JOIN email e ON e.id = ef.emailId JOIN folder f ON f.id = ef.folderId
                    JOIN thread t ON t.id = e.threadId GROUP BY ef.folderId, e.threadId))
                + (SELECT COUNT(*) FROM (
                    SELECT ef.folderId, e.threadId FROM emailFolder ef JOIN email e ON e.id = ef.emailId
                    GROUP BY ef.folderId, e.threadId
                    EXCEPT SELECT folderId, threadId FROM threadFolder))
                """) ?? -1
            let inboxLinks = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM email e WHERE e.inboxLinks != (
                    SELECT COUNT(*) FROM emailFolder ef JOIN folder f ON f.id = ef.folderId
                    WHERE ef.emailId = e.id AND f.folderType = 'inbox')
                """) ?? -1
            return (threadFolder, inboxLinks)
        }
    }

    func setFolderType(_ id: String, _ type: FolderType) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE folder SET folderType = ? WHERE id = ?", arguments: [type.rawValue, id])
        }
    }

    func rethread(emailId: String, to threadId: String) async throws {
        try await writer.write { db in
            guard let old = try String.fetchOne(db, sql: "SELECT threadId FROM email WHERE id = ?", arguments: [emailId]) else { return }
            try db.execute(sql: "INSERT OR IGNORE INTO thread(id, accountId, subject, latestDate) SELECT ?, accountId, subject, dateReceived FROM email WHERE id = ?", arguments: [threadId, emailId])
            try db.execute(sql: "UPDATE email SET threadId = ? WHERE id = ?", arguments: [threadId, emailId])
            try db.refreshThreads([old, threadId])
        }
    }
}
