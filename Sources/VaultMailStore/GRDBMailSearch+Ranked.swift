import Foundation
import GRDB
import VaultMailCore

/// The word search's pieces that search by meaning fuses with the vectors' ranking.
extension GRDBMailSearch {
    public func rankedEmailIds(_ query: SearchQuery, limit: Int) async throws -> [String] {
        let compiled = SearchCompiler.compile(query.expression)
        return try await database.writer.read { db in
            // The ORDER BY's parameter follows the WHERE's.
            var arguments = compiled.arguments
            let order = compiled.ranked ? "\(Self.bm25) * \(try Self.recency(db, &arguments)), d.date DESC" : "d.date DESC"
            arguments += [max(1, limit)]
            return try String.fetchAll(db, sql: """
                SELECT d.emailId FROM \(compiled.from) WHERE \(compiled.condition) ORDER BY \(order) LIMIT ?
                """, arguments: arguments)
        }
    }

    public func threadHits(emailIds: [String], query: SearchQuery) async throws -> [ThreadSearchHit] {
        guard !emailIds.isEmpty else { return [] }
        return try await database.writer.read { db in
            var located: [String: (threadId: String, docId: Int64)] = [:]
            for chunk in emailIds.chunked(500) {
                let rows = try Row.fetchAll(db, sql: "SELECT emailId, threadId, docId FROM searchDocument WHERE emailId IN (\(placeholders(chunk.count)))",
                                            arguments: StatementArguments(chunk))
                for row in rows { located[row["emailId"]] = (row["threadId"], row["docId"]) }
            }
            var seen = Set<String>()
            let shown = emailIds.compactMap { id -> (emailId: String, threadId: String, docId: Int64)? in
                guard let place = located[id], seen.insert(place.threadId).inserted else { return nil }
                return (id, place.threadId, place.docId)
            }
            var threads: [String: EmailThread] = [:]
            for chunk in shown.map(\.threadId).chunked(500) {
                let rows = try Row.fetchAll(db, sql: "SELECT \(EmailThread.columns) FROM thread t WHERE t.id IN (\(placeholders(chunk.count)))",
                                            arguments: StatementArguments(chunk))
                for row in rows { threads[row["id"]] = EmailThread(row: row) }
            }
            let highlights = try Self.highlights(db, query, shown.map { ($0.docId, $0.emailId) })
            return shown.compactMap { hit in
                threads[hit.threadId].map { ThreadSearchHit(thread: $0, emailId: hit.emailId, highlight: highlights[hit.emailId]) }
            }
        }
    }
}
