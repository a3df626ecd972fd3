import Foundation
import GRDB
import VaultMailCore

/// `SemanticIndex` over `emailEmbedding`: vectors as little-endian Float32 blobs, compared by
/// a scan (10,000 vectors of 384 floats are 15 MB, read and compared in milliseconds), within
/// the rows a query's operators select through the search index.
public struct GRDBSemanticIndex: SemanticIndex {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func pendingInputs(modelId: String, limit: Int) async throws -> [EmbeddingInput] {
        try await database.writer.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT e.id, e.subject, substr(e.bodyPlain, 1, \(CategorizationInput.openingLength + 100)) AS opening, e.snippet
                FROM email e LEFT JOIN emailEmbedding v ON v.emailId = e.id AND v.modelId = ?
                WHERE v.emailId IS NULL
                ORDER BY e.dateReceived DESC LIMIT ?
                """, arguments: [modelId, max(1, limit)])
            return rows.map { row in
                let opening = CategorizationInput.openingText(body: row["opening"], snippet: row["snippet"])
                return EmbeddingInput(emailId: row["id"], text: EmbedEmailsUseCase.text(subject: row["subject"], opening: opening))
            }
        }
    }

    public func save(_ vectors: [(emailId: String, vector: [Float])], modelId: String) async throws {
        guard !vectors.isEmpty else { return }
        try await database.writer.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT INTO emailEmbedding(emailId, modelId, vector) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM email WHERE id = ?)
                ON CONFLICT(emailId) DO UPDATE SET modelId = excluded.modelId, vector = excluded.vector
                """)
            for (emailId, vector) in vectors {
                try insert.execute(arguments: [emailId, modelId, Self.blob(vector), emailId])
            }
        }
    }

    public func nearest(to vector: [Float], modelId: String, filter: SearchQuery?, limit: Int) async throws -> [ScoredEmail] {
        try await database.writer.read { db in
            var sql = "SELECT v.emailId, v.vector FROM emailEmbedding v"
            var arguments: StatementArguments = []
            if let filter {
                let compiled = SearchCompiler.compile(filter.expression)
                sql += " JOIN (SELECT d.emailId FROM \(compiled.from) WHERE \(compiled.condition)) f ON f.emailId = v.emailId"
                arguments += compiled.arguments
            }
            sql += " WHERE v.modelId = ?"
            arguments += [modelId]
            var best = NearestList(capacity: max(1, limit))
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let similarity = try row.withUnsafeData(atIndex: 1) { data -> Float? in
                    guard let data, data.count == vector.count * MemoryLayout<Float>.size else { return nil }
                    return Self.similarity(vector, data)
                }
                if let similarity { best.offer(ScoredEmail(emailId: row[0], similarity: similarity)) }
            }
            return best.sorted
        }
    }

    public func coverage(modelId: String) async throws -> (embedded: Int, pending: Int) {
        try await database.writer.read { db in
            let embedded = try Int.fetchOne(db, sql: "SELECT count(*) FROM emailEmbedding WHERE modelId = ?", arguments: [modelId]) ?? 0
            let emails = try Int.fetchOne(db, sql: "SELECT count(*) FROM email") ?? 0
            return (embedded, max(0, emails - embedded))
        }
    }

    static func blob(_ vector: [Float]) -> Data {
        vector.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// The dot product of a query vector and a stored one (cosine: both have unit length).
    static func similarity(_ query: [Float], _ stored: Data) -> Float {
        stored.withUnsafeBytes { raw in
            guard Int(bitPattern: raw.baseAddress) % MemoryLayout<Float>.alignment == 0 else {
                return dot(query, [Float](unsafeUninitializedCapacity: query.count) { buffer, count in
                    _ = raw.copyBytes(to: buffer)
                    count = query.count
                })
            }
            return dot(query, raw.assumingMemoryBound(to: Float.self))
        }
    }

    private static func dot(_ a: [Float], _ b: some Collection<Float>) -> Float {
        var sum: Float = 0
        for (x, y) in zip(a, b) { sum += x * y }
        return sum
    }
}

/// The best `capacity` of a stream of scored emails, kept as a small sorted array.
private struct NearestList {
    let capacity: Int
    private(set) var sorted: [ScoredEmail] = []

    init(capacity: Int) {
        self.capacity = capacity
        sorted.reserveCapacity(capacity + 1)
    }

    mutating func offer(_ hit: ScoredEmail) {
        if sorted.count == capacity, let worst = sorted.last, worst.similarity >= hit.similarity { return }
        let index = sorted.firstIndex { $0.similarity < hit.similarity } ?? sorted.count
        sorted.insert(hit, at: index)
        if sorted.count > capacity { sorted.removeLast() }
    }
}
