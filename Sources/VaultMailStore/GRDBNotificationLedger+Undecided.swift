import Foundation
import GRDB

/// Mail the engine never decided on, found by when it was stored.
///
/// A *store mark* is the highest `rowid` of the `email` table at some moment: an email stored
/// later (by this process or another one) has a higher rowid, because SQLite gives a new row
/// one more than the largest. The daemon takes a mark when it starts watching an account and
/// later evaluates the account's mail above it that has no decision — mail another process
/// (`vaultmail sync`) stored while the daemon ran.
extension GRDBNotificationLedger {
    /// The store mark now (0 for an empty store).
    public func storeMark() async throws -> Int64 {
        try await database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(rowid), 0) FROM email") ?? 0 }
    }

    /// Where the email sits against store marks, or nil when it is not stored.
    public func storeMark(ofEmailId emailId: String) async throws -> Int64? {
        try await database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT rowid FROM email WHERE id = ?", arguments: [emailId]) }
    }

    /// The account's received mail stored after `mark` that has no decision yet, oldest first
    /// (drafts and mail being sent are not received mail).
    public func undecidedEmailIds(accountId: String, storedAfter mark: Int64) async throws -> [String] {
        try await database.writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT e.id FROM email e
                WHERE e.rowid > ? AND e.accountId = ? AND e.isDraft = 0 AND e.sendState = 'none'
                AND NOT EXISTS (SELECT 1 FROM notificationDecision d WHERE d.emailId = e.id)
                ORDER BY e.rowid
                """, arguments: [mark, accountId])
        }
    }
}
