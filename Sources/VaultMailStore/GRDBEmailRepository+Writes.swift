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
    ///
    /// Set-based, whatever the batch's size: one `IN (…)` query finds the emails and threads
    /// already stored; rows go in with multi-row `INSERT`s (`insertRows`). A thread new to the
    /// store holds only the batch's emails, so its row is inserted with its aggregates
    /// computed here (before the links, whose triggers copy them); the aggregates of stored
    /// threads the batch adds to are refreshed once, at the end. `fingerprints` (sync) also
    /// records the content fingerprint of each new email that sync wrote (`sendState` none).
    func saveEmails(_ incoming: [IncomingEmail], fingerprints: Bool = false) throws -> [Email] {
        let stored = try existingIds(in: "email", among: incoming.map(\.email.id))
        var newEmails: [Email] = []
        var newItems: [IncomingEmail] = []
        var seen = stored
        for item in incoming where seen.insert(item.email.id).inserted {
            var email = item.email
            email.hasAttachments = email.hasAttachments || !item.attachments.isEmpty
            newEmails.append(email)
            newItems.append(item)
        }
        let byThread = Dictionary(grouping: newEmails, by: \.threadId)
        var threadIds = Set<String>()
        let threadOrder = newEmails.map(\.threadId).filter { threadIds.insert($0).inserted }
        let storedThreads = try existingIds(in: "thread", among: threadOrder)

        try insertRows(
            """
            INSERT INTO thread(id, accountId, subject, latestDate, messageCount, unreadCount, isStarred,
                hasAttachments, snippet, participants, aiCategory)
            """,
            columns: 11,
            threadOrder.filter { !storedThreads.contains($0) }.compactMap { byThread[$0] }.map { emails in
                let thread = ThreadAggregate(emails: emails)
                return [thread.id, thread.accountId] + thread.columnValues
            })
        if fingerprints {
            try insertRows(
                "INSERT INTO email(\(Email.columns), contentFingerprint)", columns: 26,
                zip(newEmails, newItems).map { email, item in
                    let fingerprint = email.sendState == .none
                        ? EmailIdentity.fingerprint(of: item.email, attachmentSizes: item.attachments.map(\.sizeBytes))
                        : nil
                    return email.databaseArguments + [fingerprint]
                })
        } else {
            try insertRows("INSERT INTO email(\(Email.columns))", columns: 25, newEmails.map(\.databaseArguments))
        }
        try insertRows(
            "INSERT OR IGNORE INTO messageReference(accountId, messageId, emailId)", columns: 3,
            newEmails.flatMap { email in
                email.referencedMessageIds.map { [email.accountId, $0, email.id] as StatementArguments }
            })
        try insertRows(
            "INSERT OR REPLACE INTO attachment(\(Attachment.columns))", columns: 8,
            newItems.flatMap { $0.attachments.map(\.databaseArguments) })
        let insertSource = try cachedStatement(sql: "INSERT OR REPLACE INTO emailSource(emailId, raw) VALUES (?, ?)")
        for item in newItems {
            if let raw = item.rawSource {
                try insertSource.execute(arguments: [item.email.id, Data(raw)])
                if item.email.sendState == .none { try saveListHeaders(rawSource: raw, emailId: item.email.id) }
            }
        }
        try insertRows(
            "INSERT INTO emailFolder(emailId, folderId, uid)", columns: 3,
            incoming.flatMap { item in
                item.links.map { [item.email.id, $0.folderId, $0.uid.map { Int64($0) }] as StatementArguments }
            },
            suffix: "ON CONFLICT(emailId, folderId) DO UPDATE SET uid = excluded.uid")

        try refreshThreads(storedThreads)
        // A new email's links are the batch's links for its id.
        let folderTypes = try self.folderTypes(ids: Set(incoming.flatMap { $0.links.map(\.folderId) }))
        var types: [String: Set<FolderType>] = [:]
        for item in incoming where !stored.contains(item.email.id) {
            for link in item.links {
                if let type = folderTypes[link.folderId] { types[item.email.id, default: []].insert(type) }
            }
        }
        return newEmails.map { email in
            var email = email
            email.folderTypes = types[email.id] ?? []
            return email
        }
    }

    /// Which of these ids are stored in `table` (`email` or `thread`).
    func existingIds(in table: String, among ids: [String]) throws -> Set<String> {
        var found = Set<String>()
        for chunk in Array(Set(ids)).chunked(500) {
            found.formUnion(try String.fetchAll(
                self, sql: "SELECT id FROM \(table) WHERE id IN (\(placeholders(chunk.count)))",
                arguments: StatementArguments(chunk)))
        }
        return found
    }

    /// The type of each of these folders.
    func folderTypes(ids: Set<String>) throws -> [String: FolderType] {
        var types: [String: FolderType] = [:]
        for chunk in Array(ids).chunked(500) {
            let rows = try Row.fetchCursor(self, sql: "SELECT id, folderType FROM folder WHERE id IN (\(placeholders(chunk.count)))",
                                           arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                if let type = FolderType(rawValue: row["folderType"]) { types[row["id"]] = type }
            }
        }
        return types
    }

    /// Runs `insert` (`INSERT … INTO table(columns)`) with `VALUES` for many rows at once, up
    /// to `rowsPerStatement` rows a statement, in order.
    ///
    /// One statement for many rows rather than one a row: SQLite gives every statement that
    /// fires triggers its own savepoint, and FTS5 writes its pending terms to disk as a new
    /// index segment at each one, so a statement per email cost a segment (and merging it)
    /// per email in each search table. Statements are cached per row count, so at most
    /// `rowsPerStatement` of them per `insert`.
    func insertRows(
        _ insert: String, columns: Int, _ rows: [StatementArguments], suffix: String = "",
        rowsPerStatement: Int = 100
    ) throws {
        let row = "(" + placeholders(columns) + ")"
        for chunk in rows.chunked(rowsPerStatement) {
            let values = Array(repeating: row, count: chunk.count).joined(separator: ", ")
            let statement = try cachedStatement(sql: "\(insert) VALUES \(values) \(suffix)")
            var arguments = StatementArguments()
            for row in chunk { arguments += row }
            try statement.execute(arguments: arguments)
        }
    }
}
