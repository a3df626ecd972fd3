import Foundation
import GRDB
import VaultMailCore

/// `CategoryRepository` over the store: decisions in `email.aiCategory` / `categorySource` /
/// `categoryReason`, what corrections taught in `senderCategory` (a sender's address, or
/// `list:<List-Id>` for a mailing list). Each batch is one write
/// transaction that also brings its threads' categories up to date (`refreshThreads`: the
/// thread takes its newest email's category, `threadFolder.category` follows by trigger).
public struct GRDBCategoryRepository: CategoryRepository {
    let database: AppDatabase
    var writer: any DatabaseWriter { database.writer }

    /// How much of a raw message is read for its header fields.
    static let headerPrefixBytes = 32_768

    public init(database: AppDatabase) {
        self.database = database
    }

    private static let inputColumns = """
        e.id, e.accountId, e.threadId, e.fromAddress, e.fromName, e.toAddresses, e.ccAddresses, e.subject,
        substr(e.bodyPlain, 1, \(CategorizationInput.openingLength + 100)) AS opening,
        substr(e.bodyPlain, -\(CategorizationInput.closingLength * 2)) AS closing, e.snippet, e.inReplyTo,
        e."references", e.categorySource,
        (SELECT substr(s.raw, 1, \(headerPrefixBytes)) FROM emailSource s WHERE s.emailId = e.id) AS head
        """

    public func pendingInputs(limit: Int, includingFallback: Bool) async throws -> [CategorizationInput] {
        try await writer.read { db in
            // Both conditions imply the partial index email_uncategorized's, which is read newest first.
            let condition = includingFallback
                ? "(e.categorySource IS NULL OR e.categorySource = 'fallback')"
                : "e.categorySource IS NULL"
            return try Self.inputs(db, sql: """
                SELECT \(Self.inputColumns) FROM email e INDEXED BY email_uncategorized
                WHERE \(condition) ORDER BY e.dateReceived DESC LIMIT ?
                """, arguments: [max(1, limit)])
        }
    }

    public func inputs(emailIds: [String]) async throws -> [CategorizationInput] {
        try await writer.read { db in
            var inputs: [CategorizationInput] = []
            for chunk in emailIds.chunked(500) {
                inputs += try Self.inputs(db, sql: "SELECT \(Self.inputColumns) FROM email e WHERE e.id IN (\(placeholders(chunk.count)))",
                                          arguments: StatementArguments(chunk))
            }
            return inputs
        }
    }

    private static func inputs(_ db: Database, sql: String, arguments: StatementArguments) throws -> [CategorizationInput] {
        var own: [String: Set<String>] = [:]
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            let accountId: String = row["accountId"]
            if own[accountId] == nil { own[accountId] = try ownAddresses(db, accountId: accountId) }
            let head: Data? = row["head"]
            let references: String? = row["references"]
            let inReplyTo: String? = row["inReplyTo"]
            return CategorizationInput(
                emailId: row["id"], accountId: accountId, threadId: row["threadId"],
                from: Participant(name: row["fromName"], email: row["fromAddress"]),
                to: Participant.decode(from: row["toAddresses"]), cc: Participant.decode(from: row["ccAddresses"]),
                subject: row["subject"],
                openingText: CategorizationInput.openingText(body: row["opening"], snippet: row["snippet"]),
                closingText: CategorizationInput.closingText(body: row["closing"]),
                headers: head.map { MessageHeaderFields.parse($0) } ?? [:],
                isReply: !(inReplyTo ?? "").isEmpty || !(references ?? "").isEmpty,
                ownAddresses: own[accountId] ?? [],
                currentSource: (row["categorySource"] as String?).flatMap(CategorySource.init(rawValue:)))
        }
    }

    @discardableResult
    public func apply(_ decisions: [String: CategoryDecision]) async throws -> Int {
        guard !decisions.isEmpty else { return 0 }
        return try await writer.write { db in
            let update = try db.cachedStatement(sql: """
                UPDATE email SET aiCategory = ?, categorySource = ?, categoryReason = ?
                WHERE id = ? AND (categorySource IS NOT 'user' OR ? = 'user')
                AND (aiCategory IS NOT ? OR categorySource IS NOT ? OR categoryReason IS NOT ?)
                """)
            var changed = 0
            var emailIds: [String] = []
            for (emailId, decision) in decisions.sorted(by: { $0.key < $1.key }) {
                let category = decision.category.rawValue
                let source = decision.source.rawValue
                try update.execute(arguments: [category, source, decision.reason, emailId, source, category, source, decision.reason])
                if db.changesCount > 0 {
                    changed += 1
                    emailIds.append(emailId)
                }
            }
            try db.refreshThreads(try Self.threadIds(db, emailIds: emailIds))
            return changed
        }
    }

    public func decision(emailId: String) async throws -> CategoryDecision? {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT aiCategory, categorySource, categoryReason FROM email WHERE id = ?",
                                             arguments: [emailId]),
                  let category = (row["aiCategory"] as String?).flatMap(AICategory.init(rawValue:)),
                  let source = (row["categorySource"] as String?).flatMap(CategorySource.init(rawValue:))
            else { return nil }
            return CategoryDecision(category: category, source: source, reason: row["categoryReason"] ?? "")
        }
    }

    public func userCategories(threadIds: Set<String>) async throws -> [String: AICategory] {
        guard !threadIds.isEmpty else { return [:] }
        return try await writer.read { db in
            var result: [String: AICategory] = [:]
            for chunk in Array(threadIds).sorted().chunked(500) {
                // Oldest first, so the newest user decision of a thread is the one kept.
                let rows = try Row.fetchAll(db, sql: """
                    SELECT threadId, aiCategory FROM email
                    WHERE threadId IN (\(placeholders(chunk.count))) AND categorySource = 'user'
                    ORDER BY dateReceived
                    """, arguments: StatementArguments(chunk))
                for row in rows {
                    if let category = (row["aiCategory"] as String?).flatMap(AICategory.init(rawValue:)) {
                        result[row["threadId"]] = category
                    }
                }
            }
            return result
        }
    }

    public func senderCategories(accountId: String, addresses: Set<String>) async throws -> [String: AICategory] {
        guard !addresses.isEmpty else { return [:] }
        return try await writer.read { db in
            var result: [String: AICategory] = [:]
            for chunk in Array(addresses).sorted().chunked(500) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT address, category FROM senderCategory
                    WHERE accountId = ? AND address IN (\(placeholders(chunk.count)))
                    """, arguments: StatementArguments([accountId]) + StatementArguments(chunk))
                for row in rows {
                    if let category = AICategory(rawValue: row["category"]) {
                        result[(row["address"] as String).lowercased()] = category
                    }
                }
            }
            return result
        }
    }

    public func threadSenders(threadId: String) async throws -> ThreadSenders? {
        try await writer.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT e.id, e.accountId, e.fromAddress,
                    (SELECT substr(s.raw, 1, \(Self.headerPrefixBytes)) FROM emailSource s WHERE s.emailId = e.id) AS head
                FROM email e WHERE e.threadId = ? ORDER BY e.dateReceived, e.id
                """, arguments: [threadId])
            guard let first = rows.first else { return nil }
            var senders: [String] = []
            var lists: [String] = []
            for row in rows {
                let head: Data? = row["head"]
                let key = head.map { MessageHeaderFields.parse($0) }.map {
                    CategorizationInput(emailId: "", accountId: "", threadId: "", from: Participant(email: row["fromAddress"]),
                                        subject: "", headers: $0).teachingKey
                } ?? (row["fromAddress"] as String).lowercased()
                if key.hasPrefix("list:") {
                    let list = String(key.dropFirst(5))
                    if !lists.contains(list) { lists.append(list) }
                } else if !senders.contains(key) {
                    senders.append(key)
                }
            }
            return ThreadSenders(threadId: threadId, accountId: first["accountId"], emailIds: rows.map { $0["id"] },
                                 senders: senders, lists: lists)
        }
    }

    @discardableResult
    public func setThreadDecision(threadId: String, _ decision: CategoryDecision) async throws -> Int {
        try await writer.write { db in
            try db.execute(sql: "UPDATE email SET aiCategory = ?, categorySource = ?, categoryReason = ? WHERE threadId = ?",
                           arguments: [decision.category.rawValue, decision.source.rawValue, decision.reason, threadId])
            let changed = db.changesCount
            try db.refreshThreads([threadId])
            return changed
        }
    }

    @discardableResult
    public func teach(accountId: String, address: String, _ decision: CategoryDecision, at date: Date) async throws -> Int {
        try await writer.write { db in
            try db.execute(sql: """
                INSERT INTO senderCategory(accountId, address, category, updatedAt) VALUES (?, ?, ?, ?)
                ON CONFLICT(accountId, address) DO UPDATE SET category = excluded.category, updatedAt = excluded.updatedAt
                """, arguments: [accountId, address.lowercased(), decision.category.rawValue, date.millis])
            // A mailing list's later mail follows; its earlier mail is not looked for (that would
            // read every stored message's header).
            if address.hasPrefix("list:") { return 0 }
            let machine = "(categorySource IS NULL OR categorySource IN ('header', 'model', 'fallback', 'sender'))"
            let threadIds = try String.fetchAll(db, sql: """
                SELECT DISTINCT threadId FROM email WHERE accountId = ? AND fromAddress = ? COLLATE NOCASE AND \(machine)
                """, arguments: [accountId, address])
            try db.execute(sql: """
                UPDATE email SET aiCategory = ?, categorySource = ?, categoryReason = ?
                WHERE accountId = ? AND fromAddress = ? COLLATE NOCASE AND \(machine)
                """, arguments: [decision.category.rawValue, decision.source.rawValue, decision.reason, accountId, address])
            let moved = db.changesCount
            try db.refreshThreads(threadIds)
            return moved
        }
    }

    public func ownAddresses(accountId: String) async throws -> Set<String> {
        try await writer.read { db in try Self.ownAddresses(db, accountId: accountId) }
    }

    private static func ownAddresses(_ db: Database, accountId: String) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT email FROM account WHERE id = ?", arguments: [accountId]).map { $0.lowercased() })
    }

    private static func threadIds(_ db: Database, emailIds: [String]) throws -> Set<String> {
        var ids = Set<String>()
        for chunk in emailIds.chunked(500) {
            ids.formUnion(try String.fetchAll(db, sql: "SELECT DISTINCT threadId FROM email WHERE id IN (\(placeholders(chunk.count)))",
                                              arguments: StatementArguments(chunk)))
        }
        return ids
    }
}
