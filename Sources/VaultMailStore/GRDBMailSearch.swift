import Foundation
import GRDB
import VaultMailCore

/// `MailSearch` over the store's FTS5 index (see `createSearchIndex`).
public struct GRDBMailSearch: MailSearch {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// bm25 weights per `emailSearch` column: subject, sender, recipients, cc, body, the grams
    /// of subject and body, folded text, stems.
    static let bm25 = "bm25(emailSearch, 5.0, 3.0, 1.0, 1.0, 1.0, 5.0, 1.0, 1.0, 1.0)"
    /// A month, in milliseconds: how fast the recency boost fades.
    private static let recencyScale = 2_592_000_000.0

    public func searchThreads(_ query: SearchQuery, options: SearchOptions) async throws -> SearchPage<ThreadSearchHit> {
        let compiled = SearchCompiler.compile(query.expression)
        return try await database.writer.read { db in
            let limit = max(1, options.limit)
            let relevance = options.sort == .relevance && compiled.ranked
            var arguments: StatementArguments = []
            // bm25() cannot sit inside an aggregate: score each email first, then keep each
            // conversation's best (newest, or best ranked) email.
            let score = relevance ? "\(Self.bm25) * \(try Self.recency(db, &arguments))" : "d.date"
            arguments += compiled.arguments
            var sql = """
                WITH scored AS MATERIALIZED (
                    SELECT d.threadId, d.emailId, d.docId, \(score) AS score FROM \(compiled.from) WHERE \(compiled.condition))
                SELECT \(EmailThread.columns), h.emailId, h.docId FROM (
                    SELECT threadId, emailId, docId, \(relevance ? "min" : "max")(score) AS score FROM scored GROUP BY threadId) h
                JOIN thread t ON t.id = h.threadId
                """
            let offset = Self.page(&sql, &arguments, options, relevance: relevance, limit: limit, after: "WHERE (t.latestDate, t.id) < (?, ?)",
                                   order: relevance ? "h.score, t.latestDate DESC, t.id DESC" : "t.latestDate DESC, t.id DESC")
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let shown = Array(rows.prefix(limit))
            let highlights = try Self.highlights(db, query, shown.map { ($0["docId"], $0["emailId"]) })
            let hits = shown.map { row in
                ThreadSearchHit(thread: EmailThread(row: row), emailId: row["emailId"], highlight: highlights[row["emailId"]])
            }
            var next: SearchCursor?
            if rows.count > limit, let last = hits.last {
                next = relevance || offset > 0 ? .offset(offset + limit) : .after(date: last.thread.latestDate, id: last.thread.id)
            }
            return SearchPage(hits: hits, nextCursor: next)
        }
    }

    public func searchMessages(_ query: SearchQuery, options: SearchOptions) async throws -> SearchPage<MessageSearchHit> {
        let compiled = SearchCompiler.compile(query.expression)
        return try await database.writer.read { db in
            let limit = max(1, options.limit)
            let relevance = options.sort == .relevance && compiled.ranked
            var arguments: StatementArguments = []
            var select = "SELECT d.emailId, d.docId, d.date"
            if relevance {
                select += ", \(Self.bm25) * \(try Self.recency(db, &arguments)) AS score"
            }
            arguments += compiled.arguments
            var sql = "\(select) FROM \(compiled.from) WHERE \(compiled.condition)"
            let offset = Self.page(&sql, &arguments, options, relevance: relevance, limit: limit, after: "AND (d.date, d.emailId) < (?, ?)",
                                   order: relevance ? "score, d.date DESC, d.emailId DESC" : "d.date DESC, d.emailId DESC")
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let shown: [(docId: Int64, emailId: String)] = rows.prefix(limit).map { ($0["docId"], $0["emailId"]) }
            let emails = Dictionary(try db.emails(ids: shown.map(\.emailId)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let highlights = try Self.highlights(db, query, shown)
            let hits = shown.compactMap { hit in
                emails[hit.emailId].map { MessageSearchHit(email: $0, highlight: highlights[hit.emailId]) }
            }
            var next: SearchCursor?
            if rows.count > limit, let last = rows.prefix(limit).last {
                next = relevance || offset > 0 ? .offset(offset + limit) : .after(date: Date(millis: last["date"]), id: last["emailId"])
            }
            return SearchPage(hits: hits, nextCursor: next)
        }
    }

    public func count(_ query: SearchQuery, messages: Bool) async throws -> Int {
        let compiled = SearchCompiler.compile(query.expression)
        return try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT \(messages ? "COUNT(*)" : "COUNT(DISTINCT d.threadId)") FROM \(compiled.from) WHERE \(compiled.condition)",
                             arguments: compiled.arguments) ?? 0
        }
    }

    /// Appends where the page starts (`after`, the row tuple below the cursor's, for newest
    /// first; an offset by relevance), the order and the limit (one more row than shown, to
    /// tell whether there is a next page). Returns the offset.
    private static func page(_ sql: inout String, _ arguments: inout StatementArguments, _ options: SearchOptions,
                             relevance: Bool, limit: Int, after: String, order: String) -> Int {
        var offset = 0
        switch options.cursor {
        case .after(let date, let id) where !relevance:
            sql += " " + after
            arguments += [date.millis, id]
        case .offset(let start):
            offset = start
        default:
            break
        }
        sql += " ORDER BY \(order) LIMIT ? OFFSET ?"
        arguments += [limit + 1, offset]
        return offset
    }

    /// The factor that favours recent mail: 2 for the newest, fading towards 1 over months
    /// (bm25 is negative, better when lower, so the factor strengthens recent matches).
    static func recency(_ db: Database, _ arguments: inout StatementArguments) throws -> String {
        let newest = try Int64.fetchOne(db, sql: "SELECT max(date) FROM searchDocument") ?? 0
        arguments += [newest]
        return "(1.0 + 1.0 / (1.0 + (? - d.date) / \(recencyScale)))"
    }

    /// For each shown email (document id, email id): its body text around the matches,
    /// matches marked; else its stored snippet.
    static func highlights(_ db: Database, _ query: SearchQuery, _ shown: [(docId: Int64, emailId: String)]) throws -> [String: SearchSnippet] {
        guard !shown.isEmpty else { return [:] }
        let marked = try snippets(db, SearchHighlighter(query.expression), docIds: shown.map(\.docId))
        var result: [String: SearchSnippet] = [:]
        var missing: [String] = []
        for hit in shown {
            if let snippet = marked[hit.docId] { result[hit.emailId] = snippet } else { missing.append(hit.emailId) }
        }
        for chunk in missing.chunked(500) {
            let rows = try Row.fetchAll(db, sql: "SELECT id, snippet FROM email WHERE id IN (\(placeholders(chunk.count)))",
                                        arguments: StatementArguments(chunk))
            for row in rows { result[row["id"]] = (row["snippet"] as String?).map(SearchSnippet.init(marked:)) }
        }
        return result
    }

    /// The indexed body text around the first match of each document, matches marked (by
    /// Swift: FTS5's `snippet()` would run the query again for each row, and cannot mark
    /// CJK words it sees as character pairs).
    private static func snippets(_ db: Database, _ highlighter: SearchHighlighter, docIds: [Int64]) throws -> [Int64: SearchSnippet] {
        guard !docIds.isEmpty, !highlighter.isEmpty else { return [:] }
        var snippets: [Int64: SearchSnippet] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, body FROM emailSearch WHERE rowid IN (\(placeholders(docIds.count)))",
                                       arguments: StatementArguments(docIds))
        while let row = try rows.next() {
            if let body: String = row["body"], let snippet = highlighter.snippet(body) { snippets[row["rowid"]] = snippet }
        }
        return snippets
    }
}
