import GRDB

extension AppDatabase {
    /// On-device AI (issue 15):
    /// - `email.categorySource` / `categoryReason`: who decided `aiCategory` (`CategorySource`)
    ///   and why, in words; NULL source means no one has looked at the email yet. A partial
    ///   index finds the emails the categorizer still has to read.
    /// - `senderCategory`: what a user's correction taught about a sender, per account.
    /// - `emailEmbedding`: each email's sentence vector (little-endian Float32) for search by
    ///   meaning, with the model it came from.
    static func createAISchema(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE email ADD COLUMN categorySource TEXT;
            ALTER TABLE email ADD COLUMN categoryReason TEXT;
            CREATE INDEX email_uncategorized ON email(dateReceived)
                WHERE categorySource IS NULL OR categorySource = 'fallback';

            CREATE TABLE senderCategory (
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                address TEXT NOT NULL COLLATE NOCASE,
                category TEXT NOT NULL,
                updatedAt INTEGER NOT NULL,
                PRIMARY KEY (accountId, address)
            );

            CREATE TABLE emailEmbedding (
                emailId TEXT PRIMARY KEY NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                modelId TEXT NOT NULL,
                vector BLOB NOT NULL
            );
            """)
    }

    /// Search by meaning with several vectors per email (issue 35): `emailEmbedding` holds one
    /// row per chunk of what the sender wrote (`EmbeddingChunker`), `chunk` 0 first. The single
    /// vectors of `v7-ai` (subject and 300 characters) are dropped with their table, so every
    /// email is pending and the indexer reads it again.
    static func createChunkEmbeddings(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE emailEmbedding;
            CREATE TABLE emailEmbedding (
                emailId TEXT NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                chunk INTEGER NOT NULL,
                modelId TEXT NOT NULL,
                vector BLOB NOT NULL,
                PRIMARY KEY (emailId, chunk)
            );
            """)
    }
}
