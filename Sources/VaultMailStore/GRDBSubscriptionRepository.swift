import Foundation
import GRDB
import VaultMailCore

/// `SubscriptionRepository` over the SQLite store (tables `emailListHeaders` and
/// `unsubscription`, migration `v14-subscriptions`).
public struct GRDBSubscriptionRepository: SubscriptionRepository {
    let database: AppDatabase
    var writer: any DatabaseWriter { database.writer }

    public init(database: AppDatabase) {
        self.database = database
    }

    public func listHeaders(emailId: String) async throws -> ListHeaders? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM emailListHeaders WHERE emailId = ?", arguments: [emailId]).map(Self.headers)
        }
    }

    public func subscriptions(since: Date, recentSince: Date) async throws -> [Subscription] {
        try await writer.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT e.id, e.accountId, e.fromAddress, e.fromName, e.dateReceived, e.isRead,
                       h.listId, h.listName, h.listUnsubscribe, h.listUnsubscribePost, u.date AS unsubscribedAt
                FROM emailListHeaders h JOIN email e ON e.id = h.emailId
                LEFT JOIN unsubscription u ON u.accountId = e.accountId
                    AND u.senderKey = COALESCE('list:' || h.listId, lower(e.fromAddress))
                WHERE e.sendState = 'none' AND e.dateReceived >= ?
                ORDER BY e.dateReceived DESC, e.id
                """, arguments: [since.millis])
            var order: [String] = []
            var byKey: [String: Subscription] = [:]
            let recent = recentSince.millis
            while let row = try rows.next() {
                let headers = Self.headers(row)
                let accountId: String = row["accountId"], address: String = row["fromAddress"]
                let key = headers.senderKey(fromAddress: address)
                let date: Int64 = row["dateReceived"]
                let read: Bool = row["isRead"]
                let id = accountId + "\n" + key
                if var entry = byKey[id] {
                    // Rows come newest first: the first row of a sender is its latest message.
                    entry.count += 1
                    if date >= recent { entry.recentCount += 1 }
                    if read, entry.lastRead == nil { entry.lastRead = Date(millis: date) }
                    if let since = entry.unsubscribedAt, Date(millis: date) > since { entry.sinceUnsubscribed += 1 }
                    if entry.headers.listUnsubscribe == nil, headers.listUnsubscribe != nil {
                        entry.headers = headers
                        entry.latestEmailId = row["id"]
                    }
                    byKey[id] = entry
                } else {
                    order.append(id)
                    let unsubscribed = (row["unsubscribedAt"] as Int64?).map(Date.init(millis:))
                    byKey[id] = Subscription(
                        accountId: accountId, senderKey: key, senderName: row["fromName"], senderAddress: address,
                        listId: headers.listId, recentCount: date >= recent ? 1 : 0, count: 1,
                        lastRead: read ? Date(millis: date) : nil, latestEmailId: row["id"], latestDate: Date(millis: date),
                        headers: headers, unsubscribedAt: unsubscribed,
                        sinceUnsubscribed: unsubscribed.map { Date(millis: date) > $0 ? 1 : 0 } ?? 0)
                }
            }
            return order.compactMap { byKey[$0] }
        }
    }

    public func newestListMail(threadIds: [String]) async throws -> [String: (emailId: String, headers: ListHeaders, unsubscribed: Bool)] {
        guard !threadIds.isEmpty else { return [:] }
        return try await writer.read { db in
            var found: [String: (emailId: String, headers: ListHeaders, unsubscribed: Bool)] = [:]
            for chunk in stride(from: 0, to: threadIds.count, by: 500).map({ Array(threadIds[$0..<min($0 + 500, threadIds.count)]) }) {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT e.id, e.threadId, h.listId, h.listName, h.listUnsubscribe, h.listUnsubscribePost, u.date AS unsubscribedAt
                    FROM email e JOIN emailListHeaders h ON h.emailId = e.id
                    LEFT JOIN unsubscription u ON u.accountId = e.accountId
                        AND u.senderKey = COALESCE('list:' || h.listId, lower(e.fromAddress))
                    WHERE e.threadId IN (\(databaseQuestionMarks(count: chunk.count))) AND e.sendState = 'none'
                    ORDER BY e.dateReceived DESC, e.id
                    """, arguments: StatementArguments(chunk))
                while let row = try rows.next() {
                    let thread: String = row["threadId"]
                    if found[thread] == nil {
                        found[thread] = (row["id"], Self.headers(row), (row["unsubscribedAt"] as Int64?) != nil)
                    }
                }
            }
            return found
        }
    }

    public func recordUnsubscription(_ record: Unsubscription) async throws {
        try await writer.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO unsubscription(accountId, senderKey, date, method) VALUES (?, ?, ?, ?)
                """, arguments: [record.accountId, record.senderKey, record.date.millis, record.method])
        }
    }

    public func unsubscription(accountId: String, senderKey: String) async throws -> Unsubscription? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM unsubscription WHERE accountId = ? AND senderKey = ?",
                             arguments: [accountId, senderKey]).map {
                Unsubscription(accountId: $0["accountId"], senderKey: $0["senderKey"], date: Date(millis: $0["date"]), method: $0["method"])
            }
        }
    }

    private static func headers(_ row: Row) -> ListHeaders {
        ListHeaders(listId: row["listId"], listName: row["listName"], listUnsubscribe: row["listUnsubscribe"],
                    listUnsubscribePost: row["listUnsubscribePost"])
    }
}
