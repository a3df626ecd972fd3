import GRDB

/// How far the search migration is in indexing a store's existing mail.
public typealias SearchIndexProgress = @Sendable (_ indexed: Int, _ total: Int) -> Void

extension AppDatabase {
    /// The search index (issue 14), kept by triggers in the same transaction as every insert,
    /// update and delete of an email or attachment, whoever makes it (sync, actions, compose):
    /// - `searchDocument` gives each email a stable integer id, the rowid of its index rows
    ///   (an email's own rowid may change on VACUUM: its key is text), with the email's thread,
    ///   account and date, so results are grouped, filtered and ordered without reading the
    ///   email rows (whose bodies come first and spill onto overflow pages);
    /// - `emailSearch` (unicode61, diacritics removed): subject, sender, recipients, cc and
    ///   body for words and phrases; `subjectGrams`/`bodyGrams` hold character bigrams of
    ///   scripts written without spaces (CJK, Thai); `folded`, a copy of Greek text without
    ///   its accents (the tokenizer removes Latin ones only);
    /// - `emailFieldSearch` (trigram, folded): names and addresses and attachment filenames,
    ///   for `from:`, `to:`, `cc:` and `filename:` matching any part (`from:example.org`);
    /// - `stems` (issue 31): the English stems of the subject's, names', addresses' and body's
    ///   words that differ from their word (`SearchStemmer`), so a word typed in lower case
    ///   finds its other forms; `_` joins words (`proc_thermal` is one), as in notmuch.
    /// Existing mail is indexed here, a batch at a time, reporting progress.
    static func createSearchIndex(_ db: Database, progress: SearchIndexProgress?) throws {
        SearchFunctions.register(db)
        try db.execute(sql: """
            CREATE TABLE searchDocument (
                docId INTEGER PRIMARY KEY,
                emailId TEXT NOT NULL UNIQUE,
                threadId TEXT NOT NULL,
                accountId TEXT NOT NULL,
                date INTEGER NOT NULL
            );
            CREATE INDEX searchDocument_by_date ON searchDocument(date);
            CREATE VIRTUAL TABLE emailSearch USING fts5(
                subject, sender, recipients, cc, body, subjectGrams, bodyGrams, folded, stems,
                tokenize = "unicode61 remove_diacritics 2 tokenchars '_'"
            );
            CREATE VIRTUAL TABLE emailFieldSearch USING fts5(
                sender, recipients, cc, filenames,
                tokenize = 'trigram'
            );

            CREATE TRIGGER email_search_insert AFTER INSERT ON email BEGIN
                INSERT INTO searchDocument(emailId, threadId, accountId, date) VALUES (NEW.id, NEW.threadId, NEW.accountId, NEW.dateReceived);
                \(insertRows(email: "NEW", docId: "(SELECT docId FROM searchDocument WHERE emailId = NEW.id)"))
            END;

            CREATE TRIGGER email_search_update
            AFTER UPDATE OF subject, fromName, fromAddress, toAddresses, ccAddresses, bccAddresses, bodyPlain, bodyHTML ON email
            BEGIN
                DELETE FROM emailSearch WHERE rowid = (SELECT docId FROM searchDocument WHERE emailId = OLD.id);
                DELETE FROM emailFieldSearch WHERE rowid = (SELECT docId FROM searchDocument WHERE emailId = OLD.id);
                \(insertRows(email: "NEW", docId: "(SELECT docId FROM searchDocument WHERE emailId = NEW.id)"))
            END;

            CREATE TRIGGER email_search_place AFTER UPDATE OF threadId, accountId, dateReceived ON email BEGIN
                UPDATE searchDocument SET threadId = NEW.threadId, accountId = NEW.accountId, date = NEW.dateReceived
                WHERE emailId = NEW.id;
            END;

            CREATE TRIGGER email_search_delete AFTER DELETE ON email BEGIN
                DELETE FROM emailSearch WHERE rowid = (SELECT docId FROM searchDocument WHERE emailId = OLD.id);
                DELETE FROM emailFieldSearch WHERE rowid = (SELECT docId FROM searchDocument WHERE emailId = OLD.id);
                DELETE FROM searchDocument WHERE emailId = OLD.id;
            END;

            CREATE TRIGGER attachment_search_insert AFTER INSERT ON attachment BEGIN
                UPDATE emailFieldSearch SET filenames = \(filenames(of: "NEW.emailId"))
                WHERE rowid = (SELECT docId FROM searchDocument WHERE emailId = NEW.emailId);
            END;

            CREATE TRIGGER attachment_search_delete AFTER DELETE ON attachment BEGIN
                UPDATE emailFieldSearch SET filenames = \(filenames(of: "OLD.emailId"))
                WHERE rowid = (SELECT docId FROM searchDocument WHERE emailId = OLD.emailId);
            END;
            """)
        try indexExistingMail(db, progress: progress)
    }

    /// Drops the search index (its triggers, tables and documents) and creates and fills it
    /// again: for a store whose index was made by an earlier version of `createSearchIndex`
    /// (one without `stems`). An index that has them (made by v6 in the same run) is kept.
    static func recreateSearchIndex(_ db: Database, progress: SearchIndexProgress?) throws {
        let current = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM pragma_table_xinfo('emailSearch') WHERE name = 'stems'") ?? false
        guard !current else { return }
        try db.execute(sql: """
            DROP TRIGGER IF EXISTS email_search_insert;
            DROP TRIGGER IF EXISTS email_search_update;
            DROP TRIGGER IF EXISTS email_search_place;
            DROP TRIGGER IF EXISTS email_search_delete;
            DROP TRIGGER IF EXISTS attachment_search_insert;
            DROP TRIGGER IF EXISTS attachment_search_delete;
            DROP TABLE IF EXISTS emailSearch;
            DROP TABLE IF EXISTS emailFieldSearch;
            DROP TABLE IF EXISTS searchDocument;
            """)
        try createSearchIndex(db, progress: progress)
    }

    /// The statements that index one email (`email` is `NEW` in a trigger, or a row alias).
    private static func insertRows(email e: String, docId: String) -> String {
        """
        INSERT INTO emailSearch(rowid, subject, sender, recipients, cc, body, subjectGrams, bodyGrams, folded, stems)
            SELECT doc, subject, sender, recipients, cc, body, vaultmail_grams(subject), vaultmail_grams(body),
                   vaultmail_folded(subject || ' ' || ifnull(body, '')), \(stems)
            FROM (SELECT \(docId) AS doc, \(e).subject AS subject, \(person(e)) AS sender,
                         \(people("\(e).toAddresses", "\(e).bccAddresses")) AS recipients, \(people("\(e).ccAddresses")) AS cc,
                         vaultmail_body(\(e).bodyPlain, \(e).bodyHTML) AS body);
        INSERT INTO emailFieldSearch(rowid, sender, recipients, cc, filenames)
            VALUES (\(docId), vaultmail_fold(\(person(e))),
                    vaultmail_fold(\(people("\(e).toAddresses", "\(e).bccAddresses"))),
                    vaultmail_fold(\(people("\(e).ccAddresses"))), \(filenames(of: "\(e).id")));
        """
    }

    /// The stems of an email's words, over the columns of `emailSearch` that hold them.
    private static let stems = "vaultmail_stems(ifnull(subject, '') || ' ' || sender || ' ' || recipients || ' ' || cc || ' ' || ifnull(body, ''))"

    /// "Name address" of the sender.
    private static func person(_ e: String) -> String {
        "(ifnull(\(e).fromName || ' ', '') || \(e).fromAddress)"
    }

    /// "Name address, Name address" from participant JSON columns (malformed JSON is skipped).
    private static func people(_ columns: String...) -> String {
        let parts = columns.map { column in
            """
            (SELECT group_concat(ifnull(json_extract(value, '$.name') || ' ', '') || ifnull(json_extract(value, '$.email'), ''), ', ')
             FROM json_each(CASE WHEN json_valid(\(column)) THEN \(column) ELSE '[]' END))
            """
        }
        return "(" + parts.map { "ifnull(\($0), '')" }.joined(separator: " || ', ' || ") + ")"
    }

    private static func filenames(of emailId: String) -> String {
        "(SELECT vaultmail_fold(group_concat(filename, ' ')) FROM attachment WHERE emailId = \(emailId))"
    }

    /// Indexes mail stored before the index existed, oldest first, in batches (the new
    /// `searchDocument` ids run 1…total, so a batch is a range of them).
    static func indexExistingMail(_ db: Database, progress: SearchIndexProgress?) throws {
        try db.execute(sql: """
            INSERT INTO searchDocument(emailId, threadId, accountId, date)
            SELECT id, threadId, accountId, dateReceived FROM email ORDER BY dateReceived, id
            """)
        let total = try Int.fetchOne(db, sql: "SELECT ifnull(max(docId), 0) FROM searchDocument") ?? 0
        let batch = 1000
        for start in stride(from: 0, to: total, by: batch) {
            let range: StatementArguments = [start, start + batch]
            try db.execute(sql: """
                INSERT INTO emailSearch(rowid, subject, sender, recipients, cc, body, subjectGrams, bodyGrams, folded, stems)
                SELECT doc, subject, sender, recipients, cc, body, vaultmail_grams(subject), vaultmail_grams(body),
                       vaultmail_folded(subject || ' ' || ifnull(body, '')), \(stems) FROM (
                    SELECT d.docId AS doc, e.subject, \(person("e")) AS sender,
                           \(people("e.toAddresses", "e.bccAddresses")) AS recipients, \(people("e.ccAddresses")) AS cc,
                           vaultmail_body(e.bodyPlain, e.bodyHTML) AS body
                    FROM searchDocument d JOIN email e ON e.id = d.emailId WHERE d.docId > ? AND d.docId <= ?)
                """, arguments: range)
            try db.execute(sql: """
                INSERT INTO emailFieldSearch(rowid, sender, recipients, cc, filenames)
                SELECT d.docId, vaultmail_fold(\(person("e"))), vaultmail_fold(\(people("e.toAddresses", "e.bccAddresses"))),
                       vaultmail_fold(\(people("e.ccAddresses"))), \(filenames(of: "e.id"))
                FROM searchDocument d JOIN email e ON e.id = d.emailId WHERE d.docId > ? AND d.docId <= ?
                """, arguments: range)
            progress?(min(start + batch, total), total)
        }
    }
}
