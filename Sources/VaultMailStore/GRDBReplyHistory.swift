import Foundation
import GRDB
import VaultMailCore

/// `ReplyHistory` over the store: a reply is an email whose In-Reply-To names the answered
/// email's Message-ID, in the same account, from the account's own address, neither a draft
/// nor waiting in the outbox. Found through `messageReference` (indexed by account and
/// msg-id), never by scanning the mailbox.
public struct GRDBReplyHistory: ReplyHistory {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func replies(toEmailIds ids: [String]) async throws -> [String: Email] {
        guard !ids.isEmpty else { return [:] }
        return try await database.writer.read { db in
            var replyFor: [String: String] = [:]
            for chunk in Array(Set(ids)).chunked(500) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT e.id AS answered, r.id AS reply, r.inReplyTo, e.messageId
                    FROM email e
                    JOIN messageReference m ON m.accountId = e.accountId AND m.messageId = e.messageId
                    JOIN email r ON r.id = m.emailId
                    JOIN account a ON a.id = r.accountId
                    WHERE e.id IN (\(placeholders(chunk.count)))
                      AND r.id <> e.id AND r.isDraft = 0 AND r.sendState IN ('none', 'sent')
                      AND lower(r.fromAddress) = lower(a.email)
                    ORDER BY coalesce(r.dateSent, r.dateReceived), r.id
                    """, arguments: StatementArguments(chunk))
                for row in rows {
                    let answered: String = row["answered"]
                    let messageId: String = row["messageId"]
                    let inReplyTo: String? = row["inReplyTo"]
                    // A reference in References alone is a later message of the thread, not a reply to this one.
                    guard let inReplyTo, MessageIDs.parseList(inReplyTo).contains(messageId) else { continue }
                    if replyFor[answered] == nil { replyFor[answered] = row["reply"] }
                }
            }
            let replies = try db.emails(ids: Array(Set(replyFor.values)))
            let byId = Dictionary(replies.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return replyFor.compactMapValues { byId[$0] }
        }
    }
}
