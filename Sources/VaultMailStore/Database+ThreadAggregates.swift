import Foundation
import GRDB
import VaultMailCore

extension Database {
    /// Recomputes the aggregates of these threads from their emails: latest date, counts,
    /// unread, starred, attachments, snippet, participants, subject and category. A thread
    /// left with no email is deleted.
    func refreshThreads(_ ids: some Sequence<String>) throws {
        let select = try cachedStatement(sql: """
            SELECT fromAddress, fromName, isRead, isStarred, hasAttachments, dateReceived, snippet,
                   aiCategory, subject
            FROM email WHERE threadId = ? ORDER BY dateReceived, id
            """)
        let update = try cachedStatement(sql: """
            UPDATE thread SET subject = ?, latestDate = ?, messageCount = ?, unreadCount = ?,
                isStarred = ?, hasAttachments = ?, snippet = ?, participants = ?, aiCategory = ?
            WHERE id = ?
            """)
        let delete = try cachedStatement(sql: "DELETE FROM thread WHERE id = ?")
        for id in Set(ids) {
            let rows = try Row.fetchAll(select, arguments: [id])
            guard let first = rows.first, let last = rows.last else {
                try delete.execute(arguments: [id])
                continue
            }
            var unread = 0
            var starred = false
            var attachments = false
            var seen = Set<String>()
            var participants: [Participant] = []
            for row in rows {
                if !(row["isRead"] as Bool) { unread += 1 }
                starred = starred || row["isStarred"]
                attachments = attachments || row["hasAttachments"]
                let address: String = row["fromAddress"]
                let key = address.lowercased()
                if seen.insert(key).inserted {
                    participants.append(Participant(name: row["fromName"], email: address))
                } else if let name: String = row["fromName"], !name.isEmpty,
                          let index = participants.firstIndex(where: { $0.email.lowercased() == key }),
                          participants[index].name?.isEmpty ?? true {
                    participants[index].name = name
                }
            }
            try update.execute(arguments: [
                first["subject"] as String, last["dateReceived"] as Int64, rows.count, unread,
                starred, attachments, last["snippet"] as String?, Participant.encode(participants),
                last["aiCategory"] as String?, id,
            ])
        }
    }

    /// The types of the folders each email is linked to.
    func folderTypes(forEmailIds ids: [String]) throws -> [String: Set<FolderType>] {
        var result: [String: Set<FolderType>] = [:]
        for chunk in ids.chunked(500) {
            let rows = try Row.fetchCursor(self, sql: """
                SELECT ef.emailId, f.folderType FROM emailFolder ef JOIN folder f ON f.id = ef.folderId
                WHERE ef.emailId IN (\(placeholders(chunk.count)))
                """, arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                if let type = FolderType(rawValue: row["folderType"]) {
                    result[row["emailId"], default: []].insert(type)
                }
            }
        }
        return result
    }

    /// Emails read from rows, with their folder types filled.
    func hydratedEmails(sql: String, arguments: StatementArguments) throws -> [Email] {
        var emails = try Row.fetchAll(self, sql: sql, arguments: arguments).map(Email.init(row:))
        let types = try folderTypes(forEmailIds: emails.map(\.id))
        for index in emails.indices {
            emails[index].folderTypes = types[emails[index].id] ?? []
        }
        return emails
    }

    /// The emails with these ids (those that exist), with their folder types.
    func emails(ids: [String]) throws -> [Email] {
        var emails: [Email] = []
        for chunk in ids.chunked(500) {
            emails += try hydratedEmails(
                sql: "SELECT \(Email.columns) FROM email WHERE id IN (\(placeholders(chunk.count)))",
                arguments: StatementArguments(chunk))
        }
        return emails
    }

    /// Links the email to a folder, its UID there unknown until the next sync.
    func link(emailId: String, folderId: String) throws {
        try execute(sql: "INSERT OR IGNORE INTO emailFolder(emailId, folderId, uid) VALUES (?, ?, NULL)",
                    arguments: [emailId, folderId])
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements (SQLite limits bound variables).
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
