import Foundation
import GRDB
import VaultMailCore

extension GRDBEmailRepository {
    /// Takes the thread out of the inbox: into the Archive folder when the account has one;
    /// when it has an All Mail folder instead (Gmail), removing the inbox link is the archive.
    public func archiveThread(id: String) async throws {
        try await writer.write { db in
            let thread = try Self.requireThread(db, id: id)
            let folders = try Self.folders(db, accountId: thread.accountId)
            let inboxIds = folders.filter { $0.folderType == .inbox }.map(\.id)
            let archive = folders.first { $0.folderType == .archive }
            guard archive != nil || folders.contains(where: { $0.folderType == .allMail }) else {
                throw RepositoryError.missingFolder(accountId: thread.accountId, type: .archive)
            }
            for emailId in try Self.emailIds(db, threadId: id) {
                let inInbox = try Self.unlink(db, emailId: emailId, fromFolders: inboxIds)
                if inInbox, let archive {
                    try db.link(emailId: emailId, folderId: archive.id)
                }
            }
        }
    }

    /// Moves the thread to Trash; mail already only in Trash is deleted for good.
    public func deleteThread(id: String) async throws {
        try await writer.write { db in
            let thread = try Self.requireThread(db, id: id)
            let folders = try Self.folders(db, accountId: thread.accountId)
            guard let trash = folders.first(where: { $0.folderType == .trash }) else {
                throw RepositoryError.missingFolder(accountId: thread.accountId, type: .trash)
            }
            for emailId in try Self.emailIds(db, threadId: id) {
                let linked = try String.fetchAll(db, sql: "SELECT folderId FROM emailFolder WHERE emailId = ?", arguments: [emailId])
                if linked.allSatisfy({ $0 == trash.id }) {
                    try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [emailId])
                } else {
                    _ = try Self.unlink(db, emailId: emailId, fromFolders: linked.filter { $0 != trash.id })
                    try db.link(emailId: emailId, folderId: trash.id)
                }
            }
            try db.refreshThreads([id])
        }
    }

    /// Moves the thread's mail out of every folder it is filed in (not Sent, Drafts, All Mail
    /// or Starred, which are views rather than places) into the target folder.
    public func moveThread(id: String, toFolderId: String) async throws {
        try await writer.write { db in
            let thread = try Self.requireThread(db, id: id)
            let folders = try Self.folders(db, accountId: thread.accountId)
            guard let target = folders.first(where: { $0.id == toFolderId }) else {
                throw RepositoryError.folderNotFound(id: toFolderId)
            }
            let views: Set<FolderType> = [.sent, .drafts, .allMail, .starred]
            let movable = folders.filter { !views.contains($0.folderType) && $0.id != target.id }.map(\.id)
            for emailId in try Self.emailIds(db, threadId: id) {
                _ = try Self.unlink(db, emailId: emailId, fromFolders: movable)
                try db.link(emailId: emailId, folderId: target.id)
            }
        }
    }

    public func toggleReadStatus(threadId: String) async throws {
        try await writer.write { db in
            let thread = try Self.requireThread(db, id: threadId)
            try Self.setRead(db, threadId: threadId, isRead: thread.unreadCount > 0)
        }
    }

    public func toggleStarStatus(threadId: String) async throws {
        try await writer.write { db in
            let thread = try Self.requireThread(db, id: threadId)
            try Self.setStarred(db, threadId: threadId, isStarred: !thread.isStarred)
        }
    }

    public func setThreadRead(id: String, isRead: Bool) async throws {
        try await writer.write { db in
            _ = try Self.requireThread(db, id: id)
            try Self.setRead(db, threadId: id, isRead: isRead)
        }
    }

    public func setThreadStarred(id: String, isStarred: Bool) async throws {
        try await writer.write { db in
            _ = try Self.requireThread(db, id: id)
            try Self.setStarred(db, threadId: id, isStarred: isStarred)
        }
    }

    /// Sets the read flag of these emails; fails, changing nothing, if one does not exist.
    public func setEmailsRead(ids: [String], isRead: Bool) async throws {
        try await writer.write { db in
            var threadIds = Set<String>()
            for chunk in ids.chunked(500) {
                let rows = try Row.fetchAll(db, sql: "SELECT id, threadId FROM email WHERE id IN (\(placeholders(chunk.count)))",
                                            arguments: StatementArguments(chunk))
                let found = Set(rows.map { $0["id"] as String })
                if let missing = chunk.first(where: { !found.contains($0) }) {
                    throw RepositoryError.emailNotFound(id: missing)
                }
                threadIds.formUnion(rows.map { $0["threadId"] as String })
                try db.execute(sql: "UPDATE email SET isRead = ? WHERE id IN (\(placeholders(chunk.count)))",
                               arguments: [isRead] + StatementArguments(chunk))
            }
            try db.refreshThreads(threadIds)
        }
    }

    // MARK: - Helpers inside a write

    static func requireThread(_ db: Database, id: String) throws -> EmailThread {
        guard let thread = try thread(db, id: id) else { throw RepositoryError.threadNotFound(id: id) }
        return thread
    }

    static func folders(_ db: Database, accountId: String) throws -> [Folder] {
        try Row.fetchAll(db, sql: "SELECT \(Folder.columns) FROM folder WHERE accountId = ?", arguments: [accountId])
            .map(Folder.init(row:))
    }

    static func emailIds(_ db: Database, threadId: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT id FROM email WHERE threadId = ?", arguments: [threadId])
    }

    /// Removes the email's links to these folders; true when there was one.
    static func unlink(_ db: Database, emailId: String, fromFolders folderIds: [String]) throws -> Bool {
        guard !folderIds.isEmpty else { return false }
        try db.execute(sql: "DELETE FROM emailFolder WHERE emailId = ? AND folderId IN (\(placeholders(folderIds.count)))",
                       arguments: [emailId] + StatementArguments(folderIds))
        return db.changesCount > 0
    }

    static func setRead(_ db: Database, threadId: String, isRead: Bool) throws {
        try db.execute(sql: "UPDATE email SET isRead = ? WHERE threadId = ?", arguments: [isRead, threadId])
        try db.refreshThreads([threadId])
    }

    /// Starring a thread stars its latest email; unstarring clears every email's star.
    static func setStarred(_ db: Database, threadId: String, isStarred: Bool) throws {
        if isStarred {
            try db.execute(sql: """
                UPDATE email SET isStarred = 1 WHERE id = (
                    SELECT id FROM email WHERE threadId = ? ORDER BY dateReceived DESC, rowid DESC LIMIT 1)
                """, arguments: [threadId])
        } else {
            try db.execute(sql: "UPDATE email SET isStarred = 0 WHERE threadId = ?", arguments: [threadId])
        }
        try db.refreshThreads([threadId])
    }
}
