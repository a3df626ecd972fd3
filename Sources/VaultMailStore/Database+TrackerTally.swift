import GRDB

extension AppDatabase {
    /// Trackers the shield removed (issue 30): one row per message opened that carried any,
    /// with its sender (lowercased), so Settings → Privacy counts per sender and overall, and a
    /// message opened again replaces its row. Goes with its email.
    static func createTrackerTally(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE trackerTally (
                emailId TEXT PRIMARY KEY NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                sender TEXT NOT NULL,
                trackers INTEGER NOT NULL
            );
            CREATE INDEX trackerTally_by_sender ON trackerTally(sender);
            """)
    }
}
