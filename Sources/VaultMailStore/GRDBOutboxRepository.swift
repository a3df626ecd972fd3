import Foundation
import GRDB
import VaultMailCore

/// `OutboxRepository` over the SQLite store: drafts and the outbox (see `createOutbox`).
/// Every method is one transaction; `claim` and `returnToDraft` compare and set the state in
/// it, so a send and a cancel (or two senders) can never both win.
public struct GRDBOutboxRepository: OutboxRepository {
    let database: AppDatabase
    var writer: any DatabaseWriter { database.writer }

    public init(database: AppDatabase) {
        self.database = database
    }

    // MARK: Drafts

    public func saveDraft(_ email: Email, attachments: [DraftAttachment]) async throws {
        try await writer.write { db in
            var touchedThreads: Set<String> = [email.threadId]
            if let row = try Row.fetchOne(db, sql: "SELECT sendState, threadId, isDraft FROM email WHERE id = ?", arguments: [email.id]) {
                let state = SendState(rawValue: row["sendState"]) ?? .none
                let synced = state == .none && (row["isDraft"] as Bool? ?? false)
                guard state == .draft || synced else {
                    throw ComposeError.wrongState(emailId: email.id, state: state, action: "save as a draft")
                }
                touchedThreads.insert(row["threadId"])
            }
            var draft = email
            draft.sendState = .draft
            draft.isDraft = true
            try db.execute(
                sql: "INSERT OR IGNORE INTO thread(id, accountId, subject, latestDate) VALUES (?, ?, ?, ?)",
                arguments: [draft.threadId, draft.accountId, draft.subject, draft.dateReceived.millis])
            try db.execute(
                sql: "INSERT INTO email(\(Email.columns)) VALUES (\(placeholders(25))) ON CONFLICT(id) DO UPDATE SET \(Self.emailUpdates)",
                arguments: draft.databaseArguments)

            try db.execute(sql: "DELETE FROM attachment WHERE emailId = ?", arguments: [draft.id])
            try db.execute(sql: "DELETE FROM outgoingAttachment WHERE emailId = ?", arguments: [draft.id])
            for (index, attachment) in attachments.enumerated() {
                let metadata = VaultMailCore.Attachment(
                    emailId: draft.id, filename: attachment.filename, mimeType: attachment.mimeType,
                    sizeBytes: attachment.data.count, partId: String(index + 2))
                try db.execute(sql: "INSERT OR REPLACE INTO attachment(\(VaultMailCore.Attachment.columns)) VALUES (\(placeholders(8)))",
                               arguments: metadata.databaseArguments)
                try db.execute(
                    sql: "INSERT INTO outgoingAttachment(emailId, position, filename, mimeType, data) VALUES (?, ?, ?, ?, ?)",
                    arguments: [draft.id, index, attachment.filename, attachment.mimeType, attachment.data])
            }
            try db.execute(sql: "INSERT OR IGNORE INTO outgoing(emailId, accountId) VALUES (?, ?)",
                           arguments: [draft.id, draft.accountId])
            try Self.linkDrafts(db, emailId: draft.id, accountId: draft.accountId)
            try db.refreshThreads(touchedThreads)
        }
    }

    public func syncedDraft(emailId: String) async throws -> Email? {
        try await writer.read { db in
            let isSynced = try Bool.fetchOne(db, sql: """
                SELECT 1 FROM email e WHERE e.id = ? AND e.isDraft = 1 AND e.sendState = 'none'
                AND NOT EXISTS (SELECT 1 FROM outgoing o WHERE o.emailId = e.id)
                """, arguments: [emailId]) ?? false
            return isSynced ? try db.emails(ids: [emailId]).first : nil
        }
    }

    public func deleteDraft(emailId: String) async throws {
        try await writer.write { db in
            guard let threadId = try String.fetchOne(db, sql: "SELECT threadId FROM email WHERE id = ?", arguments: [emailId]) else {
                return
            }
            let state = try Self.state(db, emailId)
            guard state == .draft else { throw ComposeError.wrongState(emailId: emailId, state: state, action: "delete the draft") }
            try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [emailId])
            try db.refreshThreads([threadId])
        }
    }

    public func entry(emailId: String) async throws -> OutboxEntry? {
        try await writer.read { db in try Self.entries(db, where: "e.id = ?", [emailId]).first }
    }

    public func attachments(emailId: String) async throws -> [DraftAttachment] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT filename, mimeType, data FROM outgoingAttachment WHERE emailId = ? ORDER BY position
                """, arguments: [emailId])
                .map { DraftAttachment(filename: $0["filename"], mimeType: $0["mimeType"], data: $0["data"]) }
        }
    }

    public func drafts(accountId: String?) async throws -> [OutboxEntry] {
        try await writer.read { db in
            if let accountId { return try Self.entries(db, where: "e.sendState = 'draft' AND e.accountId = ?", [accountId]) }
            return try Self.entries(db, where: "e.sendState = 'draft'", [])
        }
    }

    public func outbox(accountId: String?) async throws -> [OutboxEntry] {
        try await writer.read { db in
            let states = "e.sendState IN ('queued', 'sending', 'failed')"
            if let accountId {
                return try Self.entries(db, where: "\(states) AND e.accountId = ?", [accountId])
            }
            return try Self.entries(db, where: states, [])
        }
    }

    public func recordRemoteDraft(emailId: String, location: RemoteMessageLocation?, error: String?) async throws {
        try await writer.write { db in
            try db.execute(sql: """
                UPDATE outgoing SET draftFolder = ?, draftUIDValidity = ?, draftUID = ?, draftSyncError = ?
                WHERE emailId = ?
                """, arguments: [location?.folderPath, location.map { Int64($0.uidValidity) }, location.map { Int64($0.uid) },
                                 error, emailId])
        }
    }

    // MARK: State changes

    public func queue(emailId: String, rawMessage: [UInt8], notBefore: Date, now: Date) async throws {
        try await queue(emailId: emailId, rawMessage: rawMessage, notBefore: notBefore, now: now, sendAt: nil)
    }

    public func queue(emailId: String, rawMessage: [UInt8], notBefore: Date, now: Date, sendAt: Date?) async throws {
        try await writer.write { db in
            let state = try Self.state(db, emailId)
            guard state == .draft || state == .failed else {
                throw ComposeError.wrongState(emailId: emailId, state: state, action: "queue")
            }
            try db.execute(sql: "UPDATE email SET sendState = 'queued', isDraft = 0 WHERE id = ?", arguments: [emailId])
            try db.execute(sql: """
                UPDATE outgoing SET raw = ?, queuedAt = ?, nextAttemptAt = ?, attemptCount = 0, lastError = NULL,
                    claimedBy = NULL, dataStartedAt = NULL, transmittedAt = NULL, sendAt = ?, claimKey = ?
                WHERE emailId = ?
                """, arguments: [Data(rawMessage), now.millis, notBefore.millis, sendAt?.millis,
                                 sendAt.map { _ in String(UInt64.random(in: 1...UInt64.max), radix: 16) }, emailId])
            try Self.unlink(db, emailId: emailId, fromFoldersOfType: .drafts)
        }
    }

    public func returnToDraft(emailId: String) async throws -> SendState? {
        try await writer.write { db in
            let state = try Self.state(db, emailId)
            switch state {
            case .draft:
                return nil
            case .queued, .failed:
                try db.execute(sql: "UPDATE email SET sendState = 'draft', isDraft = 1 WHERE id = ?", arguments: [emailId])
                try db.execute(sql: """
                    UPDATE outgoing SET raw = NULL, nextAttemptAt = NULL, claimedBy = NULL, dataStartedAt = NULL,
                        lastError = NULL, attemptCount = 0, sendAt = NULL, claimKey = NULL
                    WHERE emailId = ?
                    """, arguments: [emailId])
                let accountId = try String.fetchOne(db, sql: "SELECT accountId FROM email WHERE id = ?", arguments: [emailId]) ?? ""
                try Self.linkDrafts(db, emailId: emailId, accountId: accountId)
                return nil
            default:
                return state
            }
        }
    }

    public func moveSendTime(emailId: String, to sendAt: Date) async throws {
        try await writer.write { db in
            try db.execute(sql: """
                UPDATE outgoing SET sendAt = ?, nextAttemptAt = ?
                WHERE emailId = ? AND sendAt IS NOT NULL AND emailId IN (SELECT id FROM email WHERE sendState = 'queued')
                """, arguments: [sendAt.millis, sendAt.millis, emailId])
        }
    }

    public func claim(
        emailId: String, runId: String, now: Date, ignoringSchedule: Bool, leaseUntil: Date
    ) async throws -> OutboxEntry? {
        try await writer.write { db in
            try db.execute(sql: """
                UPDATE email SET sendState = 'sending'
                WHERE id = ? AND sendState = 'queued' AND (? OR EXISTS (
                    SELECT 1 FROM outgoing o WHERE o.emailId = email.id AND (o.nextAttemptAt IS NULL OR o.nextAttemptAt <= ?)))
                """, arguments: [emailId, ignoringSchedule, now.millis])
            guard db.changesCount > 0 else { return nil }
            try db.execute(sql: "UPDATE outgoing SET claimedBy = ?, dataStartedAt = NULL, nextAttemptAt = ? WHERE emailId = ?",
                           arguments: [runId, leaseUntil.millis, emailId])
            return try Self.entries(db, where: "e.id = ?", [emailId]).first
        }
    }

    public func markDataStarted(emailId: String, at date: Date) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE outgoing SET dataStartedAt = ? WHERE emailId = ?", arguments: [date.millis, emailId])
        }
    }

    public func markTransmitted(emailId: String, at date: Date) async throws {
        try await writer.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT accountId FROM email WHERE id = ?", arguments: [emailId]) else {
                throw ComposeError.draftNotFound(id: emailId)
            }
            let accountId: String = row["accountId"]
            try db.execute(sql: "UPDATE email SET sendState = 'sent', isDraft = 0, dateSent = ? WHERE id = ?",
                           arguments: [date.millis, emailId])
            try db.execute(sql: """
                UPDATE outgoing SET transmittedAt = ?, filingPending = 1, nextAttemptAt = NULL, lastError = NULL,
                    claimedBy = NULL
                WHERE emailId = ?
                """, arguments: [date.millis, emailId])
            // The sent bytes become the email's source; the draft's attachment content is no longer needed.
            try db.execute(sql: """
                INSERT OR REPLACE INTO emailSource(emailId, raw) SELECT emailId, raw FROM outgoing
                WHERE emailId = ? AND raw IS NOT NULL
                """, arguments: [emailId])
            try db.execute(sql: "DELETE FROM outgoingAttachment WHERE emailId = ?", arguments: [emailId])
            try Self.unlink(db, emailId: emailId, fromFoldersOfType: .drafts)
            for folderId in try Self.folderIds(db, accountId: accountId, type: .sent) {
                try db.link(emailId: emailId, folderId: folderId)
            }
        }
    }

    public func markFiled(emailId: String, sentCopy: RemoteMessageLocation?) async throws {
        try await writer.write { db in
            try db.execute(sql: """
                UPDATE outgoing SET filingPending = 0, filingError = NULL, raw = NULL,
                    sentFolder = ?, sentUIDValidity = ?, sentUID = ?
                WHERE emailId = ?
                """, arguments: [sentCopy?.folderPath, sentCopy.map { Int64($0.uidValidity) }, sentCopy.map { Int64($0.uid) },
                                 emailId])
            guard let sentCopy,
                  let accountId = try String.fetchOne(db, sql: "SELECT accountId FROM email WHERE id = ?", arguments: [emailId])
            else { return }
            let folderId = Folder.stableID(accountId: accountId, path: sentCopy.folderPath)
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM folder WHERE id = ?", arguments: [folderId]) != nil else { return }
            try db.execute(sql: """
                INSERT INTO emailFolder(emailId, folderId, uid) VALUES (?, ?, ?)
                ON CONFLICT(emailId, folderId) DO UPDATE SET uid = excluded.uid
                """, arguments: [emailId, folderId, Int64(sentCopy.uid)])
        }
    }

    public func recordFilingError(emailId: String, error: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE outgoing SET filingError = ? WHERE emailId = ?", arguments: [error, emailId])
        }
    }

    public func markRetry(emailId: String, reason: String, nextAttemptAt: Date) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE email SET sendState = 'queued' WHERE id = ? AND sendState = 'sending'",
                           arguments: [emailId])
            guard db.changesCount > 0 else { return }
            try db.execute(sql: """
                UPDATE outgoing SET attemptCount = attemptCount + 1, lastError = ?, nextAttemptAt = ?,
                    claimedBy = NULL, dataStartedAt = NULL
                WHERE emailId = ?
                """, arguments: [reason, nextAttemptAt.millis, emailId])
        }
    }

    public func markFailed(emailId: String, reason: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE email SET sendState = 'failed' WHERE id = ? AND sendState IN ('sending', 'queued')",
                           arguments: [emailId])
            guard db.changesCount > 0 else { return }
            try db.execute(sql: """
                UPDATE outgoing SET attemptCount = attemptCount + 1, lastError = ?, nextAttemptAt = NULL, claimedBy = NULL
                WHERE emailId = ?
                """, arguments: [reason, emailId])
        }
    }

    // MARK: Work lists

    public func dueEntries(now: Date) async throws -> [OutboxEntry] {
        try await writer.read { db in
            try Self.entries(
                db, where: "e.sendState = 'queued' AND (o.nextAttemptAt IS NULL OR o.nextAttemptAt <= ?)", [now.millis])
        }
    }

    public func interruptedEntries(currentRunId: String, now: Date, endedRunPrefix: String?) async throws -> [OutboxEntry] {
        try await writer.read { db in
            try Self.entries(db, where: """
                e.sendState = 'sending' AND (o.claimedBy IS NULL OR o.claimedBy <> ?)
                AND (o.nextAttemptAt IS NULL OR o.nextAttemptAt <= ? OR (? IS NOT NULL AND substr(o.claimedBy, 1, length(?)) = ?))
                """, [currentRunId, now.millis, endedRunPrefix, endedRunPrefix, endedRunPrefix])
        }
    }

    public func pendingFilings() async throws -> [OutboxEntry] {
        try await writer.read { db in
            try Self.entries(db, where: "o.filingPending = 1 AND e.sendState = 'sent'", [])
        }
    }

    public func nextAttemptDate() async throws -> Date? {
        try await writer.read { db in
            try Int64.fetchOne(db, sql: """
                SELECT MIN(o.nextAttemptAt) FROM outgoing o JOIN email e ON e.id = o.emailId
                WHERE e.sendState IN ('queued', 'sending')
                """).map(Date.init(millis:))
        }
    }

    /// Retries (attempt count above 0) become due; a message still in its undo delay does not.
    public func makeQueuedDue(now: Date) async throws {
        try await writer.write { db in
            try db.execute(sql: """
                UPDATE outgoing SET nextAttemptAt = ?
                WHERE attemptCount > 0 AND nextAttemptAt > ?
                AND emailId IN (SELECT id FROM email WHERE sendState = 'queued')
                """, arguments: [now.millis, now.millis])
        }
    }

    // MARK: Helpers

    /// `col = excluded.col` for every email column but the id.
    private static let emailUpdates: String = Email.columns.split(separator: ",")
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        .filter { $0 != "id" }
        .map { "\($0) = excluded.\($0)" }
        .joined(separator: ", ")

    private static func state(_ db: Database, _ emailId: String) throws -> SendState {
        guard let raw = try String.fetchOne(db, sql: "SELECT sendState FROM email WHERE id = ?", arguments: [emailId]) else {
            throw ComposeError.draftNotFound(id: emailId)
        }
        return SendState(rawValue: raw) ?? .none
    }

    private static func folderIds(_ db: Database, accountId: String, type: FolderType) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT id FROM folder WHERE accountId = ? AND folderType = ?",
                            arguments: [accountId, type.rawValue])
    }

    private static func linkDrafts(_ db: Database, emailId: String, accountId: String) throws {
        if let drafts = try folderIds(db, accountId: accountId, type: .drafts).first {
            try db.link(emailId: emailId, folderId: drafts)
        }
    }

    private static func unlink(_ db: Database, emailId: String, fromFoldersOfType type: FolderType) throws {
        try db.execute(sql: """
            DELETE FROM emailFolder WHERE emailId = ?
            AND folderId IN (SELECT id FROM folder WHERE folderType = ?)
            """, arguments: [emailId, type.rawValue])
    }

    private static let outgoingColumns = """
        o.attemptCount, o.lastError, o.nextAttemptAt, o.queuedAt, o.raw, o.claimedBy, o.dataStartedAt, \
        o.transmittedAt, o.draftFolder, o.draftUIDValidity, o.draftUID, o.draftSyncError, o.filingPending, \
        o.filingError, o.sentFolder, o.sentUIDValidity, o.sentUID, o.sendAt, o.claimKey
        """

    /// Entries whose email and outgoing row (`e`, `o`) match `condition`, oldest first.
    private static func entries(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [OutboxEntry] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT e.id AS emailId, \(outgoingColumns) FROM outgoing o JOIN email e ON e.id = o.emailId
            WHERE \(condition) ORDER BY COALESCE(o.queuedAt, e.dateReceived), e.id
            """, arguments: arguments)
        guard !rows.isEmpty else { return [] }
        let emails = Dictionary(try db.emails(ids: rows.map { $0["emailId"] as String }).map { ($0.id, $0) },
                                uniquingKeysWith: { first, _ in first })
        return rows.compactMap { row in
            emails[row["emailId"]].map { OutboxEntry(row: row, email: $0) }
        }
    }
}

extension OutboxEntry {
    init(row: Row, email: Email) {
        func location(_ folder: String, _ validity: String, _ uid: String) -> RemoteMessageLocation? {
            guard let path: String = row[folder], let validity: Int64 = row[validity], let uid: Int64 = row[uid] else { return nil }
            return RemoteMessageLocation(folderPath: path, uidValidity: UInt32(truncatingIfNeeded: validity),
                                         uid: UInt32(truncatingIfNeeded: uid))
        }
        self.init(
            email: email, attemptCount: row["attemptCount"], lastError: row["lastError"],
            nextAttemptAt: (row["nextAttemptAt"] as Int64?).map(Date.init(millis:)),
            queuedAt: (row["queuedAt"] as Int64?).map(Date.init(millis:)),
            rawMessage: (row["raw"] as Data?).map { [UInt8]($0) }, claimedBy: row["claimedBy"],
            dataStartedAt: (row["dataStartedAt"] as Int64?).map(Date.init(millis:)),
            transmittedAt: (row["transmittedAt"] as Int64?).map(Date.init(millis:)),
            remoteDraft: location("draftFolder", "draftUIDValidity", "draftUID"), draftSyncError: row["draftSyncError"],
            filingPending: row["filingPending"], filingError: row["filingError"],
            sentCopy: location("sentFolder", "sentUIDValidity", "sentUID"),
            sendAt: (row["sendAt"] as Int64?).map(Date.init(millis:)), serverClaimKey: row["claimKey"])
    }
}
