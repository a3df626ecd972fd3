import GRDB

extension AppDatabase {
    /// The sync window a folder's older mail is complete for (issue 17): `folder.historyWindowDays`.
    /// Folders whose first sync already finished hold their account's window; a folder still in
    /// its first sync (or never synced) has none, so its next sync finishes the pass back in time.
    static func createFolderHistoryWindow(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE folder ADD COLUMN historyWindowDays INTEGER;
            UPDATE folder SET historyWindowDays =
                (SELECT syncWindowDays FROM account WHERE account.id = folder.accountId)
            WHERE lastSyncDate IS NOT NULL;
            """)
    }
}
