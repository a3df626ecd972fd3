import GRDB

extension AppDatabase {
    /// Empties the search index and indexes every stored email again, in one transaction
    /// (for an index in doubt, and to time indexing).
    public func rebuildSearchIndex(progress: SearchIndexProgress? = nil) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM emailSearch; DELETE FROM emailFieldSearch; DELETE FROM searchDocument")
            try Self.indexExistingMail(db, progress: progress)
        }
    }

    /// Bytes the search index takes in the database file: its FTS5 tables and the documents
    /// (ids, threads, dates) with their indexes.
    public func searchIndexBytes() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: """
                SELECT ifnull(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'emailSearch%' OR name LIKE 'emailFieldSearch%'
                OR name LIKE 'searchDocument%' OR name LIKE 'sqlite_autoindex_searchDocument%'
                """) ?? 0
        }
    }
}
