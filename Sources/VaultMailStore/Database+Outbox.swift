import GRDB

extension AppDatabase {
    /// Drafts and the outbox (issue 6): one `outgoing` row per draft or outgoing email, next to
    /// its `email` row (whose `sendState` is the state), and the content of a draft's
    /// attachments. What a restart needs to neither lose nor double-send a message lives here:
    /// the exact bytes to send, who claimed it (`claimedBy`, a run id), whether its content
    /// started to go out (`dataStartedAt`) and whether the server accepted it (`transmittedAt`).
    static func createOutbox(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE outgoing (
                emailId TEXT PRIMARY KEY NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                attemptCount INTEGER NOT NULL DEFAULT 0,
                lastError TEXT,
                nextAttemptAt INTEGER,
                queuedAt INTEGER,
                raw BLOB,
                claimedBy TEXT,
                dataStartedAt INTEGER,
                transmittedAt INTEGER,
                draftFolder TEXT,
                draftUIDValidity INTEGER,
                draftUID INTEGER,
                draftSyncError TEXT,
                filingPending INTEGER NOT NULL DEFAULT 0,
                filingError TEXT,
                sentFolder TEXT,
                sentUIDValidity INTEGER,
                sentUID INTEGER
            );
            CREATE INDEX outgoing_by_account ON outgoing(accountId);
            CREATE INDEX outgoing_filing ON outgoing(emailId) WHERE filingPending = 1;

            CREATE TABLE outgoingAttachment (
                emailId TEXT NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                filename TEXT NOT NULL,
                mimeType TEXT NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (emailId, position)
            );
            """)
    }
}
