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
    /// Records the msg-ids an email mentions in `messageReference` (`saveEmails` does it for a
    /// batch at once).
    func indexMessageReferences(
        emailId: String, accountId: String, messageId: String, inReplyTo: String?, references: String?
    ) throws {
        let insert = try cachedStatement(sql: """
            INSERT OR IGNORE INTO messageReference(accountId, messageId, emailId) VALUES (?, ?, ?)
            """)
        for id in Email.referencedMessageIds(messageId: messageId, inReplyTo: inReplyTo, references: references) {
            try insert.execute(arguments: [accountId, id, emailId])
        }
    }
}

extension Email {
    /// The msg-ids the email mentions, each once: its own, In-Reply-To's and References'.
    var referencedMessageIds: [String] {
        Self.referencedMessageIds(messageId: messageId, inReplyTo: inReplyTo, references: references)
    }

    static func referencedMessageIds(messageId: String, inReplyTo: String?, references: String?) -> [String] {
        var ids = [messageId]
        if let inReplyTo { ids += MessageIDs.parseList(inReplyTo) }
        if let references { ids += MessageIDs.parseList(references) }
        var seen = Set<String>()
        return ids.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
