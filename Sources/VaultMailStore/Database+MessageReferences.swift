import GRDB
import VaultMailCore

extension AppDatabase {
    /// Every msg-id each email mentions (its own Message-ID, In-Reply-To and References),
    /// so new mail finds the stored conversations it belongs to with an index lookup instead
    /// of scanning the References of the whole mailbox (threading against stored mail).
    static func createMessageReferences(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE messageReference (
                accountId TEXT NOT NULL,
                messageId TEXT NOT NULL,
                emailId TEXT NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                PRIMARY KEY (accountId, messageId, emailId)
            ) WITHOUT ROWID;
            CREATE INDEX messageReference_by_email ON messageReference(emailId);
            """)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, accountId, messageId, inReplyTo, "references" FROM email
            """)
        while let row = try rows.next() {
            try db.indexMessageReferences(
                emailId: row["id"], accountId: row["accountId"], messageId: row["messageId"],
                inReplyTo: row["inReplyTo"], references: row["references"])
        }
    }
}

extension Database {
    /// Records the msg-ids `email` mentions in `messageReference`.
    func indexMessageReferences(of email: Email) throws {
        try indexMessageReferences(
            emailId: email.id, accountId: email.accountId, messageId: email.messageId,
            inReplyTo: email.inReplyTo, references: email.references)
    }

    func indexMessageReferences(
        emailId: String, accountId: String, messageId: String, inReplyTo: String?, references: String?
    ) throws {
        let insert = try cachedStatement(sql: """
            INSERT OR IGNORE INTO messageReference(accountId, messageId, emailId) VALUES (?, ?, ?)
            """)
        var ids = [messageId]
        if let inReplyTo { ids += MessageIDs.parseList(inReplyTo) }
        if let references { ids += MessageIDs.parseList(references) }
        for id in Set(ids) where !id.isEmpty {
            try insert.execute(arguments: [accountId, id, emailId])
        }
    }
}
