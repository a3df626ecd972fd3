import GRDB
import VaultMailCore

/// `TrackerTally` over the SQLite store (table `trackerTally`, migration `v15-tracker-tally`).
public struct GRDBTrackerTally: TrackerTally {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func record(emailId: String, sender: String, trackers: Int) async throws {
        try await database.writer.write { db in
            // An email removed meanwhile has no row to count against: nothing is kept.
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM email WHERE id = ?)", arguments: [emailId]) == true else { return }
            try db.execute(sql: "INSERT OR REPLACE INTO trackerTally(emailId, sender, trackers) VALUES (?, ?, ?)",
                           arguments: [emailId, sender, trackers])
        }
    }

    public func totals(limit: Int) async throws -> TrackerTotals {
        try await database.writer.read { db in
            let all = try Row.fetchOne(db, sql: "SELECT COALESCE(SUM(trackers), 0) AS trackers, COUNT(*) AS messages FROM trackerTally")
            let senders = try Row.fetchAll(db, sql: """
                SELECT sender, SUM(trackers) AS trackers, COUNT(*) AS messages FROM trackerTally
                GROUP BY sender ORDER BY trackers DESC, sender LIMIT ?
                """, arguments: [limit]).map {
                TrackerTotals.Sender(address: $0["sender"], trackers: $0["trackers"], messages: $0["messages"])
            }
            return TrackerTotals(trackers: all?["trackers"] ?? 0, messages: all?["messages"] ?? 0, senders: senders)
        }
    }
}
