import Foundation
import GRDB
import VaultMailCore

/// `SyncRepository` over the SQLite store: folders as the server lists them, UIDs, sync
/// checkpoints, server flags, expunges and re-threading, each write in one transaction with
/// thread aggregates refreshed and the trigger-kept membership (`threadFolder`,
/// `email.inboxLinks`) right.
public struct GRDBSyncRepository: SyncRepository {
    let database: AppDatabase
    var writer: any DatabaseWriter { database.writer }

    public init(database: AppDatabase) {
        self.database = database
    }

    // MARK: - Folders

    public func addOrUpdateFolders(_ folders: [Folder]) async throws {
        guard !folders.isEmpty else { return }
        try await writer.write { db in
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO folder(\(Folder.columns)) VALUES (\(placeholders(12)))
                ON CONFLICT(id) DO UPDATE SET name = excluded.name, path = excluded.path,
                    folderType = excluded.folderType
                """)
            for folder in folders {
                try upsert.execute(arguments: folder.databaseArguments)
            }
        }
    }

    @discardableResult
    public func renameFolder(id: String, toPath path: String, name: String) async throws -> String {
        try await writer.write { db in
            guard let accountId = try String.fetchOne(db, sql: "SELECT accountId FROM folder WHERE id = ?", arguments: [id]) else {
                throw RepositoryError.folderNotFound(id: id)
            }
            let newId = Folder.stableID(accountId: accountId, path: path)
            if newId == id {
                try db.execute(sql: "UPDATE folder SET path = ?, name = ? WHERE id = ?", arguments: [path, name, id])
                return id
            }
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM folder WHERE id = ?", arguments: [newId]) != nil {
                throw RepositoryError.storage(
                    "cannot rename folder \(id) to \"\(path)\": a folder with that path is already stored; delete it first")
            }
            try db.execute(sql: """
                INSERT INTO folder(\(Folder.columns))
                SELECT ?, accountId, ?, ?, folderType, uidValidity, lastSyncedUID, highestModSeq,
                       totalCount, unreadCount, lastSyncDate, historyWindowDays
                FROM folder WHERE id = ?
                """, arguments: [newId, name, path, id])
            // No trigger watches these updates: the folder type (and so inbox counts) is the same.
            try db.execute(sql: "UPDATE threadFolder SET folderId = ? WHERE folderId = ?", arguments: [newId, id])
            try db.execute(sql: """
                UPDATE folder SET identityCheckPending = (SELECT identityCheckPending FROM folder WHERE id = ?) WHERE id = ?
                """, arguments: [id, newId])
            try db.execute(sql: "UPDATE emailFolder SET folderId = ? WHERE folderId = ?", arguments: [newId, id])
            try db.execute(sql: "DELETE FROM folder WHERE id = ?", arguments: [id])
            return newId
        }
    }

    public func deleteFolders(ids: [String]) async throws {
        guard !ids.isEmpty else { return }
        try await writer.write { db in
            for id in ids {
                let emailIds = try String.fetchAll(db, sql: "SELECT emailId FROM emailFolder WHERE folderId = ?", arguments: [id])
                try Self.dropLinks(db, folderId: id, emailIds: emailIds)
                try db.execute(sql: "DELETE FROM folder WHERE id = ?", arguments: [id])
            }
        }
    }

    public func updateSyncState(folderId: String, _ state: FolderSyncState) async throws {
        try await writer.write { db in try Self.updateSyncState(db, folderId: folderId, state) }
    }

    static func updateSyncState(_ db: Database, folderId: String, _ state: FolderSyncState) throws {
        try db.execute(sql: """
            UPDATE folder SET uidValidity = ?, lastSyncedUID = ?, highestModSeq = ?, lastSyncDate = ?,
                totalCount = ?, unreadCount = ?, historyWindowDays = ?
            WHERE id = ?
            """, arguments: [
                state.uidValidity.map { Int64($0) }, state.lastSyncedUID.map { Int64($0) },
                state.highestModSeq.map { Int64(bitPattern: $0) }, state.lastSyncDate?.millis,
                state.totalCount, state.unreadCount, state.historyWindowDays, folderId,
            ])
        if db.changesCount == 0 { throw RepositoryError.folderNotFound(id: folderId) }
    }

    public func resetFolder(id: String, uidValidity: UInt32) async throws {
        try await writer.write { db in
            try Self.updateSyncState(db, folderId: id, FolderSyncState(uidValidity: uidValidity))
            try db.execute(sql: "UPDATE emailFolder SET uid = NULL WHERE folderId = ?", arguments: [id])
            // Every message is fetched and told apart again: nothing left to check.
            try db.execute(sql: "UPDATE folder SET identityCheckPending = 0 WHERE id = ?", arguments: [id])
        }
    }

    @discardableResult
    public func removeUnconfirmedLinks(folderId: String) async throws -> Int {
        try await writer.write { db in
            let emailIds = try String.fetchAll(
                db, sql: "SELECT emailId FROM emailFolder WHERE folderId = ? AND uid IS NULL", arguments: [folderId])
            try Self.dropLinks(db, folderId: folderId, emailIds: emailIds)
            return emailIds.count
        }
    }

    // MARK: - Lookups

    public func uidMap(folderId: String) async throws -> [UInt32: String] {
        try await writer.read { db in
            var map: [UInt32: String] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT uid, emailId FROM emailFolder WHERE folderId = ? AND uid IS NOT NULL", arguments: [folderId])
            while let row = try rows.next() {
                map[UInt32(truncatingIfNeeded: row["uid"] as Int64)] = row["emailId"]
            }
            return map
        }
    }

    public func emails(folderId: String, uids: [UInt32]) async throws -> [UInt32: Email] {
        try await writer.read { db in
            var uidByEmail: [String: UInt32] = [:]
            for chunk in uids.chunked(500) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT emailId, uid FROM emailFolder WHERE folderId = ? AND uid IN (\(placeholders(chunk.count)))
                    """, arguments: [folderId] + StatementArguments(chunk.map { Int64($0) }))
                for row in rows { uidByEmail[row["emailId"]] = UInt32(truncatingIfNeeded: row["uid"] as Int64) }
            }
            var result: [UInt32: Email] = [:]
            for email in try db.emails(ids: Array(uidByEmail.keys)) {
                if let uid = uidByEmail[email.id] { result[uid] = email }
            }
            return result
        }
    }

    public func emails(accountId: String, messageIds: [String]) async throws -> [Email] {
        try await writer.read { db in
            var emails: [Email] = []
            for chunk in messageIds.chunked(500) {
                emails += try db.hydratedEmails(sql: """
                    SELECT \(Email.columns) FROM email WHERE accountId = ? AND messageId IN (\(placeholders(chunk.count)))
                    """, arguments: [accountId] + StatementArguments(chunk))
            }
            return emails
        }
    }

    public func existingEmailIds(among ids: [String]) async throws -> Set<String> {
        try await writer.read { db in try db.existingIds(in: "email", among: ids) }
    }

    public func threadingFacts(accountId: String, mentioning messageIds: Set<String>) async throws -> [ThreadingFacts] {
        guard !messageIds.isEmpty else { return [] }
        return try await writer.read { db in
            var threadIds = Set<String>()
            for chunk in Array(messageIds).chunked(500) {
                threadIds.formUnion(try String.fetchAll(db, sql: """
                    SELECT DISTINCT e.threadId FROM messageReference r JOIN email e ON e.id = r.emailId
                    WHERE r.accountId = ? AND r.messageId IN (\(placeholders(chunk.count)))
                    """, arguments: [accountId] + StatementArguments(chunk)))
            }
            var facts: [ThreadingFacts] = []
            for chunk in Array(threadIds).chunked(500) {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT id, messageId, inReplyTo, "references", dateSent, dateReceived, threadId
                    FROM email WHERE threadId IN (\(placeholders(chunk.count)))
                    """, arguments: StatementArguments(chunk))
                while let row = try rows.next() {
                    let sent = (row["dateSent"] as Int64?).map(Date.init(millis:))
                    facts.append(ThreadingFacts(
                        emailId: row["id"], messageId: row["messageId"],
                        inReplyTo: (row["inReplyTo"] as String?).flatMap(MessageIDs.parseFirst),
                        references: (row["references"] as String?).map(MessageIDs.parseList) ?? [],
                        date: sent ?? Date(millis: row["dateReceived"]), threadId: row["threadId"]))
                }
            }
            return facts
        }
    }

    public func links(emailIds: [String]) async throws -> [EmailFolder] {
        try await writer.read { db in
            var links: [EmailFolder] = []
            for chunk in emailIds.chunked(500) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT emailId, folderId, uid FROM emailFolder WHERE emailId IN (\(placeholders(chunk.count)))
                    """, arguments: StatementArguments(chunk))
                links += rows.map {
                    EmailFolder(emailId: $0["emailId"], folderId: $0["folderId"],
                                uid: ($0["uid"] as Int64?).map { UInt32(truncatingIfNeeded: $0) })
                }
            }
            return links
        }
    }

    // MARK: - Message identity

    public func emailIdentities(accountId: String, messageIds: [String]) async throws -> [EmailIdentity] {
        guard !messageIds.isEmpty else { return [] }
        return try await writer.read { db in try db.emailIdentities(accountId: accountId, messageIds: messageIds) }
    }

    public func pendingIdentityCheck(folderId: String) async throws -> [UInt32: EmailIdentity]? {
        try await writer.read { db in
            guard try Bool.fetchOne(db, sql: "SELECT identityCheckPending FROM folder WHERE id = ?", arguments: [folderId]) == true else {
                return nil
            }
            var links: [UInt32: EmailIdentity] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT ef.uid, e.id, e.messageId, \(Database.knownFingerprint) AS contentFingerprint, e.sizeBytes, e.dateReceived
                FROM emailFolder ef JOIN email e ON e.id = ef.emailId
                WHERE ef.folderId = ? AND ef.uid IS NOT NULL
                """, arguments: [folderId])
            while let row = try rows.next() {
                links[UInt32(truncatingIfNeeded: row["uid"] as Int64)] = EmailIdentity(
                    emailId: row["id"], messageId: row["messageId"], contentFingerprint: row["contentFingerprint"],
                    sizeBytes: row["sizeBytes"], dateReceived: Date(millis: row["dateReceived"]))
            }
            return links
        }
    }

    @discardableResult
    public func finishIdentityCheck(folderId: String, droppingUnconfirmed emailIds: [String], keepingOrphans: Bool) async throws -> [String] {
        try await writer.write { db in
            var dropped: [String] = []
            for chunk in Array(Set(emailIds)).chunked(500) {
                dropped += try String.fetchAll(db, sql: """
                    SELECT emailId FROM emailFolder
                    WHERE folderId = ? AND uid IS NULL AND emailId IN (\(placeholders(chunk.count)))
                    """, arguments: [folderId] + StatementArguments(chunk))
            }
            try Self.dropLinks(db, folderId: folderId, emailIds: dropped, keepingOrphans: keepingOrphans)
            try db.execute(sql: "UPDATE folder SET identityCheckPending = 0 WHERE id = ?", arguments: [folderId])
            return dropped
        }
    }

    // MARK: - Writes

    @discardableResult
    public func storeSyncBatch(_ batch: SyncBatch) async throws -> [Email] {
        try await writer.write { db in
            try Self.releaseUIDs(db, folderId: batch.folderId, batch.emails)
            var stored = try db.saveEmails(batch.emails, fingerprints: true)
            try Self.recordContentFingerprints(db, batch.emails)
            try db.receiveAutocrypt(batch.emails)
            try Self.rethread(db, batch.threadChanges)
            _ = try Self.applyServerFlags(db, folderId: batch.folderId, batch.flags)
            if let checkpoint = batch.checkpoint {
                try Self.updateSyncState(db, folderId: batch.folderId, checkpoint)
            }
            if !batch.threadChanges.isEmpty || !batch.flags.isEmpty {
                // New emails may have been re-threaded or had their flags changed in this batch.
                let current = Dictionary(try db.emails(ids: stored.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { $1 })
                stored = stored.map { current[$0.id] ?? $0 }
            }
            return stored
        }
    }

    @discardableResult
    public func applyServerFlags(folderId: String, _ flags: [ServerFlags]) async throws -> Int {
        guard !flags.isEmpty else { return 0 }
        return try await writer.write { db in try Self.applyServerFlags(db, folderId: folderId, flags) }
    }

    static func applyServerFlags(_ db: Database, folderId: String, _ flags: [ServerFlags]) throws -> Int {
        guard !flags.isEmpty else { return 0 }
        var threadIds = Set<String>()
        var changed = 0
        // The emails to change, by the flags they get: one UPDATE per flag pair and 500 emails.
        var changes: [[Bool]: [String]] = [:]
        for chunk in flags.chunked(500) {
            let byUID = Dictionary(chunk.map { ($0.uid, $0) }, uniquingKeysWith: { $1 })
            let rows = try Row.fetchAll(db, sql: """
                SELECT ef.uid, e.id, e.threadId, e.isRead, e.isStarred
                FROM emailFolder ef JOIN email e ON e.id = ef.emailId
                WHERE ef.folderId = ? AND ef.uid IN (\(placeholders(chunk.count)))
                """, arguments: [folderId] + StatementArguments(chunk.map { Int64($0.uid) }))
            for row in rows {
                guard let server = byUID[UInt32(truncatingIfNeeded: row["uid"] as Int64)] else { continue }
                if (row["isRead"] as Bool) != server.isRead || (row["isStarred"] as Bool) != server.isStarred {
                    changes[[server.isRead, server.isStarred], default: []].append(row["id"])
                    threadIds.insert(row["threadId"])
                    changed += 1
                }
            }
        }
        for (flags, ids) in changes {
            for chunk in ids.chunked(500) {
                try db.execute(sql: "UPDATE email SET isRead = ?, isStarred = ? WHERE id IN (\(placeholders(chunk.count)))",
                               arguments: [flags[0], flags[1]] + StatementArguments(chunk))
            }
        }
        try db.refreshThreads(threadIds)
        return changed
    }

    @discardableResult
    public func removeLinks(folderId: String, uids: [UInt32], keepingOrphans: Bool) async throws -> [String] {
        guard !uids.isEmpty else { return [] }
        return try await writer.write { db in
            var emailIds: [String] = []
            for chunk in uids.chunked(500) {
                emailIds += try String.fetchAll(db, sql: """
                    SELECT emailId FROM emailFolder WHERE folderId = ? AND uid IN (\(placeholders(chunk.count)))
                    """, arguments: [folderId] + StatementArguments(chunk.map { Int64($0) }))
            }
            try Self.dropLinks(db, folderId: folderId, emailIds: emailIds, keepingOrphans: keepingOrphans)
            return emailIds
        }
    }

    @discardableResult
    public func deleteEmailsWithoutLinks(among ids: [String]) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await writer.write { db in
            var threadIds = Set<String>()
            var deleted = 0
            for chunk in Array(Set(ids)).chunked(500) {
                let orphans = """
                    id IN (\(placeholders(chunk.count)))
                    AND NOT EXISTS (SELECT 1 FROM emailFolder ef WHERE ef.emailId = email.id)
                    """
                threadIds.formUnion(try String.fetchAll(
                    db, sql: "SELECT threadId FROM email WHERE \(orphans)", arguments: StatementArguments(chunk)))
                try db.execute(sql: "DELETE FROM email WHERE \(orphans)", arguments: StatementArguments(chunk))
                deleted += db.changesCount
            }
            try db.refreshThreads(threadIds)
            return deleted
        }
    }

    static func rethread(_ db: Database, _ changes: [ThreadChange]) throws {
        guard !changes.isEmpty else { return }
        var current: [String: String] = [:]
        for chunk in Array(Set(changes.map(\.emailId))).chunked(500) {
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, threadId FROM email WHERE id IN (\(placeholders(chunk.count)))
                """, arguments: StatementArguments(chunk))
            while let row = try rows.next() { current[row["id"]] = row["threadId"] }
        }
        let ensureThread = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO thread(id, accountId, subject, latestDate)
            SELECT ?, accountId, subject, dateReceived FROM email WHERE id = ?
            """)
        let move = try db.cachedStatement(sql: "UPDATE email SET threadId = ? WHERE id = ?")
        var touched = Set<String>()
        for change in changes {
            guard let old = current[change.emailId], old != change.threadId else { continue }
            try ensureThread.execute(arguments: [change.threadId, change.emailId])
            try move.execute(arguments: [change.threadId, change.emailId])
            current[change.emailId] = change.threadId
            touched.formUnion([old, change.threadId])
        }
        try db.refreshThreads(touched)
    }

    public func setLinkUIDs(_ links: [EmailFolder]) async throws {
        guard !links.isEmpty else { return }
        try await writer.write { db in
            let clear = try db.cachedStatement(sql: """
                UPDATE emailFolder SET uid = NULL WHERE folderId = ? AND uid = ? AND emailId != ?
                """)
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO emailFolder(emailId, folderId, uid) VALUES (?, ?, ?)
                ON CONFLICT(emailId, folderId) DO UPDATE SET uid = excluded.uid
                """)
            for link in links {
                if let uid = link.uid { try clear.execute(arguments: [link.folderId, Int64(uid), link.emailId]) }
                try upsert.execute(arguments: [link.emailId, link.folderId, link.uid.map { Int64($0) }])
            }
        }
    }

    // MARK: - Helpers inside a write

    /// A UID is one message of the folder: a link that holds the UID of one of these emails'
    /// links to the folder for another email (stored before message identity told them apart)
    /// loses it. One statement per 400 links.
    static func releaseUIDs(_ db: Database, folderId: String, _ incoming: [IncomingEmail]) throws {
        let pairs: [(uid: Int64, emailId: String)] = incoming.flatMap { item in
            item.links.compactMap { link in
                guard link.folderId == folderId, let uid = link.uid else { return nil }
                return (Int64(uid), item.email.id)
            }
        }
        for chunk in pairs.chunked(400) {
            var arguments: StatementArguments = [folderId]
            for pair in chunk { arguments += [pair.uid, pair.emailId] }
            arguments += [folderId]
            try db.execute(sql: """
                UPDATE emailFolder SET uid = NULL
                WHERE folderId = ? AND (uid, emailId) IN (
                    SELECT ef.uid, ef.emailId FROM emailFolder ef
                    JOIN (VALUES \(Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", "))) AS batch
                        ON ef.uid = batch.column1 AND ef.emailId != batch.column2
                    WHERE ef.folderId = ?)
                """, arguments: arguments)
        }
    }

    /// Records the content fingerprint of the batch's new emails (computed from what is stored,
    /// as the `v10-message-identity` migration does for older ones).
    static func recordContentFingerprints(_ db: Database, _ incoming: [IncomingEmail]) throws {
        var missing = Set<String>()
        for chunk in Array(Set(incoming.map(\.email.id))).chunked(500) {
            missing.formUnion(try String.fetchAll(db, sql: """
                SELECT id FROM email
                WHERE id IN (\(placeholders(chunk.count))) AND contentFingerprint IS NULL AND sendState = 'none'
                """, arguments: StatementArguments(chunk)))
        }
        guard !missing.isEmpty else { return }
        let update = try db.cachedStatement(sql: "UPDATE email SET contentFingerprint = ? WHERE id = ?")
        for item in incoming where missing.remove(item.email.id) != nil {
            let fingerprint = EmailIdentity.fingerprint(of: item.email, attachmentSizes: item.attachments.map(\.sizeBytes))
            try update.execute(arguments: [fingerprint, item.email.id])
        }
    }

    /// Removes these emails' links to the folder; emails left with no link are deleted and
    /// the aggregates of their threads refreshed.
    static func dropLinks(_ db: Database, folderId: String, emailIds: [String], keepingOrphans: Bool = false) throws {
        guard !emailIds.isEmpty else { return }
        var threadIds = Set<String>()
        for chunk in Array(Set(emailIds)).chunked(500) {
            let arguments = StatementArguments(chunk)
            threadIds.formUnion(try String.fetchAll(
                db, sql: "SELECT threadId FROM email WHERE id IN (\(placeholders(chunk.count)))", arguments: arguments))
            try db.execute(sql: """
                DELETE FROM emailFolder WHERE folderId = ? AND emailId IN (\(placeholders(chunk.count)))
                """, arguments: [folderId] + arguments)
            if keepingOrphans { continue }
            try db.execute(sql: """
                DELETE FROM email WHERE id IN (\(placeholders(chunk.count)))
                AND NOT EXISTS (SELECT 1 FROM emailFolder ef WHERE ef.emailId = email.id)
                """, arguments: arguments)
        }
        try db.refreshThreads(threadIds)
    }
}
