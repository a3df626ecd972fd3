import Foundation
import GRDB
import VaultMailCore

/// `SemanticIndex` over `emailEmbedding`: one row per chunk of an email (`EmbeddingChunker`),
/// vectors as little-endian Float32 blobs, compared by a scan (30,000 vectors of 384 floats are
/// 46 MB, read and compared in tens of milliseconds), within the rows a query's operators
/// select through the search index; an email scores as its nearest chunk.
public struct GRDBSemanticIndex: SemanticIndex {
    let database: AppDatabase
    let chunker: EmbeddingChunker

    public init(database: AppDatabase, chunker: EmbeddingChunker = .standard) {
        self.database = database
        self.chunker = chunker
    }

    public func pendingInputs(modelId: String, limit: Int) async throws -> [EmbeddingInput] {
        try await database.writer.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT e.id, e.subject, e.bodyPlain, e.bodyHTML, e.snippet
                FROM email e LEFT JOIN emailEmbedding v ON v.emailId = e.id AND v.chunk = 0 AND v.modelId = ?
                WHERE v.emailId IS NULL
                ORDER BY e.dateReceived DESC LIMIT ?
                """, arguments: [modelId, max(1, limit)])
            return rows.flatMap { row in
                let plain = MessageText.plain(plain: row["bodyPlain"], html: row["bodyHTML"])
                let body = plain.isEmpty ? (row["snippet"] as String? ?? "") : plain
                return chunker.chunks(subject: row["subject"], body: body).enumerated().map { chunk, text in
                    EmbeddingInput(emailId: row["id"], chunk: chunk, text: text)
                }
            }
        }
    }

    public func save(_ vectors: [(emailId: String, vectors: [[Float]])], modelId: String) async throws {
        guard !vectors.isEmpty else { return }
        try await database.writer.write { db in
            let clear = try db.cachedStatement(sql: "DELETE FROM emailEmbedding WHERE emailId = ?")
            let insert = try db.cachedStatement(sql: """
                INSERT INTO emailEmbedding(emailId, chunk, modelId, vector) SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM email WHERE id = ?)
                """)
            for (emailId, chunks) in vectors {
                try clear.execute(arguments: [emailId])
                for (chunk, vector) in chunks.enumerated() {
                    try insert.execute(arguments: [emailId, chunk, modelId, Self.blob(vector), emailId])
                }
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
            // Each email's best chunk, emails in the order first read (ties keep it).
            var emails: [ScoredEmail] = []
            var position: [String: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let similarity = try row.withUnsafeData(atIndex: 1) { data -> Float? in
                    guard let data, data.count == vector.count * MemoryLayout<Float>.size else { return nil }
                    return Self.similarity(vector, data)
                }
                guard let similarity else { continue }
                let emailId: String = row[0]
                if let known = position[emailId] {
                    emails[known].similarity = max(emails[known].similarity, similarity)
                } else {
                    position[emailId] = emails.count
                    emails.append(ScoredEmail(emailId: emailId, similarity: similarity))
                }
            }
            var nearest = NearestList(capacity: max(1, limit))
            for email in emails { nearest.offer(email) }
            return nearest.sorted
        }
    }

    public func coverage(modelId: String) async throws -> (embedded: Int, pending: Int) {
        try await database.writer.read { db in
            let embedded = try Int.fetchOne(db, sql: "SELECT count(*) FROM emailEmbedding WHERE chunk = 0 AND modelId = ?", arguments: [modelId]) ?? 0
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
