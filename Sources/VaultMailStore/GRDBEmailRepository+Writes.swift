import Foundation
import GRDB
import VaultMailCore

extension GRDBEmailRepository {
    public func saveFolders(_ folders: [Folder]) async throws {
        try await writer.write { db in
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO folder(\(Folder.columns)) VALUES (\(placeholders(12)))
                ON CONFLICT(id) DO UPDATE SET name = excluded.name, path = excluded.path,
                    folderType = excluded.folderType, uidValidity = excluded.uidValidity,
                    lastSyncedUID = excluded.lastSyncedUID, highestModSeq = excluded.highestModSeq,
                    totalCount = excluded.totalCount, unreadCount = excluded.unreadCount,
                    lastSyncDate = excluded.lastSyncDate, historyWindowDays = excluded.historyWindowDays
                """)
            for folder in folders {
                try upsert.execute(arguments: folder.databaseArguments)
            }
        }
    }

    @discardableResult
    public func saveEmails(_ incoming: [IncomingEmail]) async throws -> [Email] {
        guard !incoming.isEmpty else { return [] }
        return try await writer.write { db in try db.saveEmails(incoming) }
    }
}

extension Database {
    /// `EmailRepository.saveEmails` inside a write: new emails with their thread rows,
    /// attachments, raw source and msg-id index; links (with UIDs) for new and known emails.
    func saveEmails(_ incoming: [IncomingEmail]) throws -> [Email] {
        let db = self
        let exists = try db.cachedStatement(sql: "SELECT 1 FROM email WHERE id = ?")
        let insertThread = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO thread(id, accountId, subject, latestDate) VALUES (?, ?, ?, ?)
            """)
        let insertEmail = try db.cachedStatement(sql: "INSERT INTO email(\(Email.columns)) VALUES (\(placeholders(25)))")
        let insertAttachment = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO attachment(\(Attachment.columns)) VALUES (\(placeholders(8)))
            """)
        let insertSource = try db.cachedStatement(sql: "INSERT OR REPLACE INTO emailSource(emailId, raw) VALUES (?, ?)")
        let upsertLink = try db.cachedStatement(sql: """
            INSERT INTO emailFolder(emailId, folderId, uid) VALUES (?, ?, ?)
            ON CONFLICT(emailId, folderId) DO UPDATE SET uid = excluded.uid
            """)

        var newEmails: [Email] = []
        var touchedThreads = Set<String>()
        var insertedIds = Set<String>()
        for item in incoming {
            var email = item.email
            let alreadyStored = try insertedIds.contains(email.id)
                || Bool.fetchOne(exists, arguments: [email.id]) != nil
            let isNew = !alreadyStored
            if isNew {
                email.hasAttachments = email.hasAttachments || !item.attachments.isEmpty
                try insertThread.execute(arguments: [email.threadId, email.accountId, email.subject, email.dateReceived.millis])
                try insertEmail.execute(arguments: email.databaseArguments)
                try db.indexMessageReferences(of: email)
                for attachment in item.attachments {
                    try insertAttachment.execute(arguments: attachment.databaseArguments)
                }
                if let raw = item.rawSource {
                    try insertSource.execute(arguments: [email.id, Data(raw)])
                }
                insertedIds.insert(email.id)
                touchedThreads.insert(email.threadId)
                newEmails.append(email)
            }
            for link in item.links {
                try upsertLink.execute(arguments: [email.id, link.folderId, link.uid.map { Int64($0) }])
            }
        }
        try db.refreshThreads(touchedThreads)
        let types = try db.folderTypes(forEmailIds: newEmails.map(\.id))
        return newEmails.map { email in
            var email = email
            email.folderTypes = types[email.id] ?? []
            return email
        }
    }
}
