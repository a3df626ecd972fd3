import Foundation
import GRDB
import VaultMailCore

/// `SnoozeRepository` over the SQLite store (table `snooze`, migration `v16-snooze`). A row
/// counts only while its email is in a Snoozed folder here, so mail another client moved out
/// is not listed even before the next read of the server.
public struct GRDBSnoozeRepository: SnoozeRepository {
    let database: AppDatabase
    var writer: any DatabaseWriter { database.writer }

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The rows that count: the email is linked to the account's Snoozed folder.
    private static let current = """
        SELECT s.emailId, s.wakeAt, e.threadId, e.accountId FROM snooze s JOIN email e ON e.id = s.emailId
        WHERE EXISTS (SELECT 1 FROM emailFolder ef JOIN folder f ON f.id = ef.folderId
                      WHERE ef.emailId = s.emailId AND f.folderType = 'snoozed')
        """

    public func snoozed() async throws -> [SnoozedConversation] {
        try await writer.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT c.threadId, c.accountId, t.subject, MIN(COALESCE(c.wakeAt, 9223372036854775807)) AS wake,
                       (SELECT COALESCE(NULLIF(e2.fromName, ''), e2.fromAddress) FROM email e2
                        WHERE e2.threadId = c.threadId ORDER BY e2.dateReceived DESC LIMIT 1) AS sender
                FROM (\(Self.current)) c JOIN thread t ON t.id = c.threadId
                GROUP BY c.threadId ORDER BY wake, t.latestDate DESC
                """)
            return rows.map { row in
                SnoozedConversation(threadId: row["threadId"], accountId: row["accountId"], subject: row["subject"],
                                    from: row["sender"] ?? "", time: Self.time(row["wake"]))
            }
        }
    }

    public func times(threadIds: [String]) async throws -> [String: SnoozeTime] {
        try await writer.read { db in
            var result: [String: SnoozeTime] = [:]
            for chunk in threadIds.chunked(500) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT c.threadId, MIN(COALESCE(c.wakeAt, 9223372036854775807)) AS wake FROM (\(Self.current)) c
                    WHERE c.threadId IN (\(placeholders(chunk.count))) GROUP BY c.threadId
                    """, arguments: StatementArguments(Array(chunk)))
                for row in rows { result[row["threadId"]] = Self.time(row["wake"]) }
            }
            return result
        }
    }

    public func nextWake() async throws -> Date? {
        try await writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT MIN(c.wakeAt) FROM (\(Self.current)) c").map(Date.init(millis:))
        }
    }

    public func accountsDue(at now: Date) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT c.accountId FROM (\(Self.current)) c WHERE c.wakeAt <= ? ORDER BY 1",
                                arguments: [now.millis])
        }
    }

    public func replace(accountId: String, times: [String: SnoozeTime]) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM snooze WHERE emailId IN (SELECT id FROM email WHERE accountId = ?)", arguments: [accountId])
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO snooze(emailId, wakeAt) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM email WHERE id = ?)
                """)
            for (emailId, time) in times {
                try insert.execute(arguments: [emailId, time.date?.millis, emailId])
            }
        }
    }

    public func set(emailIds: [String], time: SnoozeTime) async throws {
        try await writer.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO snooze(emailId, wakeAt) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM email WHERE id = ?)
                """)
            for emailId in emailIds { try insert.execute(arguments: [emailId, time.date?.millis, emailId]) }
        }
    }

    public func remove(emailIds: [String]) async throws {
        try await writer.write { db in
            for chunk in emailIds.chunked(500) {
                try db.execute(sql: "DELETE FROM snooze WHERE emailId IN (\(placeholders(chunk.count)))",
                               arguments: StatementArguments(Array(chunk)))
            }
        }
    }

    public func cameBack(emailIds: [String], at date: Date) async throws {
        try await writer.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO snoozeReturn(emailId, returnedAt) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM email WHERE id = ?)
                """)
            for emailId in emailIds { try insert.execute(arguments: [emailId, date.millis, emailId]) }
            var threads: [String] = []
            for chunk in emailIds.chunked(500) {
                threads += try String.fetchAll(db, sql: "SELECT DISTINCT threadId FROM email WHERE id IN (\(placeholders(chunk.count)))",
                                               arguments: StatementArguments(Array(chunk)))
            }
            try db.refreshThreads(threads)
        }
    }

    private static func time(_ wake: Int64?) -> SnoozeTime {
        guard let wake, wake != Int64.max else { return .someday }
        return .until(Date(millis: wake))
    }
}
