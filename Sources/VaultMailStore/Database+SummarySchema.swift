import GRDB

extension AppDatabase {
    /// Conversation summaries (issue 16, AC-A-06): one a thread, gone with it. `messageCount`
    /// and `latestEmailId` say what it covers, so new mail makes it stale; `kind` is
    /// `ThreadSummaryKind` (model or extractive), `modelId` the model that wrote or ranked it.
    static func createSummarySchema(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE threadSummary (
                threadId TEXT PRIMARY KEY NOT NULL REFERENCES thread(id) ON DELETE CASCADE,
                text TEXT NOT NULL,
                kind TEXT NOT NULL,
                modelId TEXT,
                messageCount INTEGER NOT NULL,
                latestEmailId TEXT NOT NULL,
                createdAt INTEGER NOT NULL
            );
            """)
    }
}
