import Foundation
import GRDB
import VaultMailCore

/// `ThreadSummaryRepository` over the `threadSummary` table: one summary a thread, removed
/// with the thread (and so with its account).
public struct GRDBThreadSummaryRepository: ThreadSummaryRepository {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func summary(threadId: String) async throws -> ThreadSummary? {
        try await database.writer.read { db in
            try Row.fetchOne(db, sql: """
                SELECT threadId, text, kind, modelId, messageCount, latestEmailId, createdAt FROM threadSummary WHERE threadId = ?
                """, arguments: [threadId]).map { row in
                ThreadSummary(threadId: row["threadId"], text: row["text"],
                              kind: ThreadSummaryKind(rawValue: row["kind"]) ?? .extractive, modelId: row["modelId"],
                              messageCount: row["messageCount"], latestEmailId: row["latestEmailId"],
                              createdAt: Date(millis: row["createdAt"]))
            }
        }
    }

    /// Stores `summary`, replacing the thread's older one; nothing is stored for a thread that
    /// no longer exists (deleted while the summary was being written).
    public func save(_ summary: ThreadSummary) async throws {
        try await database.writer.write { db in
            try db.execute(sql: """
                INSERT INTO threadSummary(threadId, text, kind, modelId, messageCount, latestEmailId, createdAt)
                SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM thread WHERE id = ?)
                ON CONFLICT(threadId) DO UPDATE SET text = excluded.text, kind = excluded.kind, modelId = excluded.modelId,
                    messageCount = excluded.messageCount, latestEmailId = excluded.latestEmailId, createdAt = excluded.createdAt
                """, arguments: [summary.threadId, summary.text, summary.kind.rawValue, summary.modelId, summary.messageCount,
                                 summary.latestEmailId, summary.createdAt.millis, summary.threadId])
        }
    }
}
