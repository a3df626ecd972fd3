import GRDB

extension AppDatabase {
    /// Conversation actions kept for the mail server while it could not be reached (issue 29):
    /// one row per action, in the order the person acted (`id`), with the server copies
    /// (folder, UID) it is carried out on as JSON. Not tied to the email rows by a foreign key:
    /// a message deleted here for good must still be deleted on the server.
    static func createPendingChanges(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE pendingChange (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                threadId TEXT NOT NULL,
                subject TEXT NOT NULL,
                action TEXT NOT NULL,
                folderId TEXT,
                folderName TEXT,
                copies TEXT NOT NULL,
                createdAt INTEGER NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                lastError TEXT
            );
            CREATE INDEX pendingChange_by_account ON pendingChange(accountId, id);
            """)
    }
}
