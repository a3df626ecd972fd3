import Foundation
import GRDB
import VaultMailCore

/// `ContactSource` over the store: recipients (To, Cc, Bcc) of the mail the user's accounts
/// sent, and senders of the mail they received, one row per address (case-insensitive), with
/// the name of the latest message that gave one. One read of the email table; the web app
/// reads it once and keeps it in memory (`ContactDirectory`).
public struct GRDBContactSource: ContactSource {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func contacts() async throws -> [Contact] {
        try await database.writer.read { db in
            var byAddress: [String: Contact] = [:]
            for row in try Row.fetchAll(db, sql: Self.sentSQL) {
                let address: String = row["address"]
                byAddress[address] = Contact(email: row["email"], name: Self.name(row["name"]), sentCount: row["count"],
                                             lastSent: Date(millis: row["latest"]))
            }
            for row in try Row.fetchAll(db, sql: Self.receivedSQL) {
                let address: String = row["address"]
                var contact = byAddress[address] ?? Contact(email: row["email"])
                if contact.name == nil { contact.name = Self.name(row["name"]) }
                contact.receivedCount = row["count"]
                contact.lastReceived = Date(millis: row["latest"])
                contact.bulkCount = row["bulk"]
                byAddress[address] = contact
            }
            return Array(byAddress.values)
        }
    }

    private static func name(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty, !value.contains("@") else { return nil }
        return value
    }

    /// Everyone the user wrote to; the name and spelling come from the latest message (SQLite
    /// takes bare columns from the row of `max()`).
    static let sentSQL = """
        WITH own AS (SELECT lower(email) AS address FROM account),
        mine AS (SELECT toAddresses, ccAddresses, bccAddresses, coalesce(dateSent, dateReceived) AS date FROM email
                 WHERE lower(fromAddress) IN own AND sendState IN ('none', 'sent')),
        people AS (
            SELECT json_extract(p.value, '$.email') AS email, json_extract(p.value, '$.name') AS name, date
            FROM mine, json_each(mine.toAddresses) p
            UNION ALL SELECT json_extract(p.value, '$.email'), json_extract(p.value, '$.name'), date FROM mine, json_each(mine.ccAddresses) p
            UNION ALL SELECT json_extract(p.value, '$.email'), json_extract(p.value, '$.name'), date FROM mine, json_each(mine.bccAddresses) p)
        SELECT lower(email) AS address, email, name, count(*) AS count, max(date) AS latest FROM people
        WHERE email LIKE '%_@_%' AND lower(email) NOT IN own
        GROUP BY lower(email)
        """

    /// Everyone who wrote to the user, with how much of it was sorted out of Primary.
    static let receivedSQL = """
        WITH own AS (SELECT lower(email) AS address FROM account)
        SELECT lower(fromAddress) AS address, fromAddress AS email, fromName AS name, count(*) AS count,
               max(coalesce(dateSent, dateReceived)) AS latest,
               count(CASE WHEN aiCategory IN ('promotions', 'updates', 'forums', 'social') THEN 1 END) AS bulk
        FROM email WHERE fromAddress LIKE '%_@_%' AND lower(fromAddress) NOT IN own
        GROUP BY lower(fromAddress)
        """
}
