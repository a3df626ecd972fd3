import Foundation
import GRDB
import VaultMailCore

/// `NotificationLedger` in the store: one row per email, a `notified` row never replaced,
/// the oldest rows pruned past `capacity`, and rows removed with their account.
public struct GRDBNotificationLedger: NotificationLedger {
    let database: AppDatabase
    public let capacity: Int

    public init(database: AppDatabase, capacity: Int = 100_000) {
        self.database = database
        self.capacity = capacity
    }

    public func record(_ decisions: [NotificationDecision]) async throws {
        try await record(decisions, replacingNotified: false)
    }

    public func recordComeBack(_ decisions: [NotificationDecision]) async throws {
        try await record(decisions, replacingNotified: true)
    }

    private func record(_ decisions: [NotificationDecision], replacingNotified: Bool) async throws {
        guard !decisions.isEmpty else { return }
        try await database.writer.write { db in
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO notificationDecision(emailId, accountId, threadId, decidedAt, outcome, rule, detail, subject, fromAddress)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM account WHERE id = ?)
                ON CONFLICT(emailId) DO UPDATE SET threadId = excluded.threadId, decidedAt = excluded.decidedAt,
                    outcome = excluded.outcome, rule = excluded.rule, detail = excluded.detail,
                    subject = excluded.subject, fromAddress = excluded.fromAddress, seq = NULL
                WHERE notificationDecision.outcome != 'notified' OR ?
                """)
            for decision in decisions {
                try upsert.execute(arguments: [
                    decision.emailId, decision.accountId, decision.threadId, decision.decidedAt.millis,
                    decision.outcome.rawValue, decision.rule.rawValue, decision.detail, decision.subject,
                    decision.fromAddress, decision.accountId, replacingNotified,
                ])
            }
            try db.execute(sql: """
                DELETE FROM notificationDecision WHERE seq <= (SELECT MAX(seq) FROM notificationDecision) - ?
                """, arguments: [capacity])
        }
    }

    public func decision(forEmailId emailId: String) async throws -> NotificationDecision? {
        try await database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM notificationDecision WHERE emailId = ?", arguments: [emailId])
                .map(Self.decision(row:))
        }
    }

    public func recentDecisions(limit: Int) async throws -> [NotificationDecision] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM notificationDecision ORDER BY seq DESC LIMIT ?", arguments: [max(0, limit)])
                .map(Self.decision(row:))
        }
    }

    public func notifiedEmailIds(among emailIds: [String]) async throws -> Set<String> {
        try await database.writer.read { db in
            var found = Set<String>()
            for chunk in emailIds.chunked(500) {
                found.formUnion(try String.fetchAll(db, sql: """
                    SELECT emailId FROM notificationDecision
                    WHERE outcome = 'notified' AND emailId IN (\(placeholders(chunk.count)))
                    """, arguments: StatementArguments(chunk)))
            }
            return found
        }
    }

    static func decision(row: Row) -> NotificationDecision {
        NotificationDecision(
            emailId: row["emailId"], accountId: row["accountId"], threadId: row["threadId"],
            decidedAt: Date(millis: row["decidedAt"]),
            outcome: NotificationOutcome(rawValue: row["outcome"]) ?? .suppressed,
            rule: NotificationRule(rawValue: row["rule"]) ?? .allFilters,
            detail: row["detail"], subject: row["subject"], fromAddress: row["fromAddress"])
    }
}
