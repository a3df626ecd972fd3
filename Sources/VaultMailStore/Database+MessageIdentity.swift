import Foundation
import GRDB
import VaultMailCore

extension AppDatabase {
    /// Message identity (issue 17, Core's `EmailIdentity`): two different messages with one
    /// Message-ID are two emails.
    ///
    /// - `email.contentFingerprint`: filled here from the stored fields for every email sync
    ///   wrote (`sendState = 'none'`); compose and outbox emails keep NULL, "not known" (see
    ///   `knownFingerprint`).
    /// - `folder.identityCheckPending`: folders whose links were stored before this, when a second message with
    ///   a stored Message-ID became a link of the first email (its UID moved onto that link) or
    ///   was dropped from its batch. The next sync of each checks its links once
    ///   (`FolderSynchronizer`: size and internal date against the stored email, then fetches
    ///   what differs or is missing) and the lost message comes back; then the flag goes.
    static func createMessageIdentity(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE email ADD COLUMN contentFingerprint TEXT;
            ALTER TABLE folder ADD COLUMN identityCheckPending INTEGER NOT NULL DEFAULT 0;
            UPDATE folder SET identityCheckPending = 1
            WHERE id IN (SELECT DISTINCT folderId FROM emailFolder WHERE uid IS NOT NULL);
            """)
        let ids = try String.fetchAll(db, sql: "SELECT id FROM email WHERE sendState = 'none'")
        for chunk in ids.chunked(500) {
            try db.fillContentFingerprints(emailIds: Array(chunk))
        }
    }
}

extension Database {
    /// Computes `email.contentFingerprint` from the stored fields of these emails (and their
    /// attachments' sizes): the same fields, so the same fingerprint, as sync computes from
    /// the parsed message they were stored from.
    func fillContentFingerprints(emailIds: [String]) throws {
        guard !emailIds.isEmpty else { return }
        let rows = try Row.fetchAll(self, sql: """
            SELECT id, fromAddress, dateSent, subject, bodyPlain, bodyHTML FROM email
            WHERE id IN (\(placeholders(emailIds.count)))
            """, arguments: StatementArguments(emailIds))
        guard !rows.isEmpty else { return }
        let sizes = try cachedStatement(sql: "SELECT sizeBytes FROM attachment WHERE emailId = ?")
        let update = try cachedStatement(sql: "UPDATE email SET contentFingerprint = ? WHERE id = ?")
        for row in rows {
            let id: String = row["id"]
            let fingerprint = EmailIdentity.fingerprint(
                fromAddress: row["fromAddress"], dateSent: (row["dateSent"] as Int64?).map(Date.init(millis:)),
                subject: row["subject"], bodyPlain: row["bodyPlain"], bodyHTML: row["bodyHTML"],
                attachmentSizes: try Int.fetchAll(sizes, arguments: [id]))
            try update.execute(arguments: [fingerprint, id])
        }
    }

    /// `email.contentFingerprint` as `EmailIdentity` reads it: unknown (NULL) for an email of
    /// compose and the outbox (`sendState` other than `none`), which stands for any message
    /// fetched under its Message-ID that no other email matches: VaultMail's Message-IDs are
    /// unique, and a draft's content changes under its id.
    static let knownFingerprint = "CASE WHEN sendState = 'none' THEN contentFingerprint END"

    /// The identities of the account's emails with these Message-IDs.
    func emailIdentities(accountId: String, messageIds: [String]) throws -> [EmailIdentity] {
        var identities: [EmailIdentity] = []
        for chunk in Array(Set(messageIds)).chunked(500) {
            let rows = try Row.fetchCursor(self, sql: """
                SELECT id, messageId, \(Self.knownFingerprint) AS contentFingerprint, sizeBytes, dateReceived FROM email
                WHERE accountId = ? AND messageId IN (\(placeholders(chunk.count)))
                """, arguments: [accountId] + StatementArguments(chunk))
            while let row = try rows.next() {
                identities.append(EmailIdentity(
                    emailId: row["id"], messageId: row["messageId"], contentFingerprint: row["contentFingerprint"],
                    sizeBytes: row["sizeBytes"], dateReceived: Date(millis: row["dateReceived"])))
            }
        }
        return identities
    }
}
