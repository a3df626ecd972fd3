import Foundation
import GRDB
import VaultMailCore

extension AppDatabase {
    /// How much of a raw message is read for its list headers.
    static let listHeaderPrefixBytes = 32_768

    /// Issue 33: the list headers of each received email (`emailListHeaders`: List-Id's
    /// identifier and name, List-Unsubscribe, List-Unsubscribe-Post, only for emails with List-Id or
    /// List-Unsubscribe), read from the stored raw message when it is saved and, here, from the
    /// messages already stored; and which senders the person unsubscribed from (`unsubscription`,
    /// by `ListHeaders.senderKey`).
    static func createSubscriptions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE emailListHeaders (
                emailId TEXT PRIMARY KEY NOT NULL REFERENCES email(id) ON DELETE CASCADE,
                listId TEXT,
                listName TEXT,
                listUnsubscribe TEXT,
                listUnsubscribePost TEXT
            );
            CREATE TABLE unsubscription (
                accountId TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                senderKey TEXT NOT NULL,
                date INTEGER NOT NULL,
                method TEXT NOT NULL,
                PRIMARY KEY (accountId, senderKey)
            );
            """)
        let sources = try Row.fetchCursor(db, sql: """
            SELECT s.emailId, substr(s.raw, 1, \(listHeaderPrefixBytes)) AS head
            FROM emailSource s JOIN email e ON e.id = s.emailId WHERE e.sendState = 'none'
            """)
        var found: [(String, ListHeaders)] = []
        while let row = try sources.next() {
            let head: Data? = row["head"]
            if let head, let headers = ListHeaders(fields: MessageHeaderFields.parse(head)) { found.append((row["emailId"], headers)) }
        }
        for (emailId, headers) in found { try db.saveListHeaders(headers, emailId: emailId) }
    }
}

extension Database {
    /// Keeps the list headers of a received email read from its raw message (none: nothing is written).
    func saveListHeaders(rawSource raw: [UInt8], emailId: String) throws {
        guard let headers = ListHeaders(fields: MessageHeaderFields.parse(raw.prefix(AppDatabase.listHeaderPrefixBytes))) else { return }
        try saveListHeaders(headers, emailId: emailId)
    }

    func saveListHeaders(_ headers: ListHeaders, emailId: String) throws {
        try cachedStatement(sql: """
            INSERT OR REPLACE INTO emailListHeaders(emailId, listId, listName, listUnsubscribe, listUnsubscribePost) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [emailId, headers.listId, headers.listName, headers.listUnsubscribe, headers.listUnsubscribePost])
    }
}
