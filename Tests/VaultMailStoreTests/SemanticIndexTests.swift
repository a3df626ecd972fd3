import Foundation
import GRDB
import Testing
@testable import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

/// The store's sentence vectors (AC-A-07) and the word search's pieces search by meaning fuses,
/// on the production migrator, with hand-made vectors so every expected rank is known.
@Suite("Semantic index (issue 15)")
struct SemanticIndexTests {
    let store: StoreFixture
    let index: GRDBSemanticIndex
    let search: GRDBMailSearch
    let clock = FixedClock(MailFixtures.referenceDate.addingTimeInterval(86_400))
    static let model = "test-model"

    init() async throws {
        store = try await StoreFixture(accounts: ["work"])
        index = GRDBSemanticIndex(database: store.database)
        search = GRDBMailSearch(database: store.database)
        try await store.add(1...4) { email in
            let n = Int(email.messageId.filter(\.isNumber)) ?? 0
            email.subject = ["", "Quarterly budget review", "Lunch on Friday", "Invoice 2024", "Team offsite"][n]
            email.bodyPlain = "Body of message \(n)"
            email.fromAddress = n == 4 ? "boss@example.com" : "colleague@example.com"
            email.dateReceived = MailFixtures.referenceDate.addingTimeInterval(Double(n) * 60)
        }
    }

    /// A unit vector along axis `axis` of 4, bent a little towards axis 3 by `tilt`.
    static func vector(_ axis: Int, tilt: Float = 0) -> [Float] {
        var v: [Float] = [0, 0, 0, 0]
        v[axis] = 1
        v[3] += tilt
        let norm = (v.map { $0 * $0 }.reduce(0, +)).squareRoot()
        return v.map { $0 / norm }
    }

    func ids() async throws -> [String: String] {
        let threads = try await store.emails.getThreads(folderId: store.folder(.inbox).id, category: nil, cursor: nil, limit: 10).threads
        return Dictionary(uniqueKeysWithValues: threads.map { ($0.subject, $0.id) })
    }

    @Test("every email waits for a vector, newest first, with its subject and opening text")
    func pending() async throws {
        let inputs = try await index.pendingInputs(modelId: Self.model, limit: 10)
        #expect(inputs.count == 4)
        #expect(inputs.first?.text == "Team offsite. Body of message 4")
        #expect(try await index.coverage(modelId: Self.model) == (0, 4))
    }

    @Test("saved vectors leave the pending list, per model; a vector for a deleted email is not kept")
    func saving() async throws {
        let inputs = try await index.pendingInputs(modelId: Self.model, limit: 10)
        try await index.save(inputs.prefix(3).enumerated().map { ($1.emailId, [Self.vector($0)]) } + [("no-such-email", [Self.vector(0)])], modelId: Self.model)
        #expect(try await index.coverage(modelId: Self.model) == (3, 1))
        #expect(try await index.pendingInputs(modelId: Self.model, limit: 10).map(\.emailId) == [inputs[3].emailId])
        #expect(try await index.pendingInputs(modelId: "another-model", limit: 10).count == 4)
    }

    @Test("the nearest vectors come best first, and a query's operators narrow them exactly")
    func nearest() async throws {
        let inputs = try await index.pendingInputs(modelId: Self.model, limit: 10)  // 4, 3, 2, 1
        try await index.save([
            (inputs[0].emailId, [Self.vector(0, tilt: 0.5)]), (inputs[1].emailId, [Self.vector(1)]),
            (inputs[2].emailId, [Self.vector(2)]), (inputs[3].emailId, [Self.vector(0)]),
        ], modelId: Self.model)
        let all = try await index.nearest(to: Self.vector(0), modelId: Self.model, filter: nil, limit: 2)
        #expect(all.map(\.emailId) == [inputs[3].emailId, inputs[0].emailId])
        #expect(abs(all[0].similarity - 1) < 1e-5)
        #expect(all[1].similarity < 0.95 && all[1].similarity > 0.85)

        let filter = try SearchQuery.parse("from:colleague", now: clock.now, timeZone: clock.timeZone)
        let narrowed = try await index.nearest(to: Self.vector(0), modelId: Self.model, filter: filter, limit: 10)
        #expect(narrowed.map(\.emailId).first == inputs[3].emailId)
        #expect(!narrowed.map(\.emailId).contains(inputs[0].emailId), "from:colleague leaves out the boss's email")
        #expect(narrowed.count == 3)
    }

    @Test("ranked email ids follow the word search; thread hits keep the given order, one per conversation")
    func wordRanking() async throws {
        let query = try SearchQuery.parse("budget", now: clock.now, timeZone: clock.timeZone)
        let ranked = try await search.rankedEmailIds(query, limit: 10)
        #expect(ranked.count == 1)
        let inputs = try await index.pendingInputs(modelId: Self.model, limit: 10)
        let words = try SearchQuery.parse("body", now: clock.now, timeZone: clock.timeZone)
        let hits = try await search.threadHits(emailIds: inputs.reversed().map(\.emailId) + [inputs[0].emailId], query: words)
        #expect(hits.map(\.thread.subject) == ["Quarterly budget review", "Lunch on Friday", "Invoice 2024", "Team offsite"])
        #expect(hits[0].highlight?.segments.contains { $0.isMatch && $0.text == "Body" } == true)
    }

    @Test("search by meaning fuses both rankings, keeps operators exact, and needs a model")
    func semanticSearch() async throws {
        let inputs = try await index.pendingInputs(modelId: Self.model, limit: 10)  // 4, 3, 2, 1
        // The query means axis 0: the budget review (email 1) is nearest, the offsite (4) next.
        try await index.save([
            (inputs[0].emailId, [Self.vector(0, tilt: 0.3)]), (inputs[1].emailId, [Self.vector(1)]),
            (inputs[2].emailId, [Self.vector(2)]), (inputs[3].emailId, [Self.vector(0)]),
        ], modelId: Self.model)
        let embedder = FixedTextEmbedder(modelId: Self.model, vectors: ["financial planning": Self.vector(0)])
        let semantic = SemanticSearchUseCase(search: search, index: index, embedder: embedder, clock: clock)
        let page = try await semantic.threads("financial planning")
        #expect(page.hits.map(\.thread.subject) == ["Quarterly budget review", "Team offsite"],
                "orthogonal vectors (cosine 0) are below the similarity floor and left out; the offsite (0.96) is above it")
        let narrowed = try await semantic.threads("financial planning from:colleague")
        #expect(narrowed.hits.map(\.thread.subject) == ["Quarterly budget review"])

        let missing = SemanticSearchUseCase(search: search, index: index, embedder: FixedTextEmbedder(modelId: Self.model, vectors: [:], installed: false), clock: clock)
        await #expect(throws: SearchError.self) { try await missing.threads("financial planning") }
    }
}

@Suite("Rank fusion for search by meaning (issue 15)")
struct RankFusionTests {
    @Test("a message both rankings find comes first; a meaning-only match needs the floor and, when set, the window")
    func fusion() {
        let near = [ScoredEmail(emailId: "a", similarity: 0.6), ScoredEmail(emailId: "b", similarity: 0.55),
                    ScoredEmail(emailId: "c", similarity: 0.45), ScoredEmail(emailId: "d", similarity: 0.1)]
        let window = SemanticSearchUseCase.Ranking(similarityWindow: 0.1)
        #expect(SemanticSearchUseCase.fuse(words: ["b", "x"], near: near, ranking: window) == ["b", "a", "x"],
                "b is in both; c is 0.15 from the nearest; d is below the floor")
        #expect(SemanticSearchUseCase.fuse(words: ["d"], near: near, ranking: window) == ["d", "a", "b"], "a word match keeps its place whatever its vector")
        #expect(SemanticSearchUseCase.fuse(words: [], near: [ScoredEmail(emailId: "z", similarity: 0.12)]).isEmpty)
    }

    @Test("by default every meaning-only match above the floor is kept; the words' weight moves a word-only match")
    func rankingOptions() {
        let near = [ScoredEmail(emailId: "a", similarity: 0.6), ScoredEmail(emailId: "c", similarity: 0.3), ScoredEmail(emailId: "d", similarity: 0.1)]
        #expect(SemanticSearchUseCase.fuse(words: [], near: near) == ["a", "c"], "the standard ranking: c is 0.3 from the nearest, d below the floor")
        #expect(SemanticSearchUseCase.fuse(words: ["x"], near: near) == ["x", "a", "c"], "equal ranks tie: the word ranking's order")
        let light = SemanticSearchUseCase.Ranking(wordWeight: 0.5, similarityWindow: nil)
        #expect(SemanticSearchUseCase.fuse(words: ["x"], near: near, ranking: light) == ["a", "c", "x"])
    }
}

@Suite("Semantic index: several vectors per email (issue 35)")
struct ChunkIndexTests {
    static let model = "test-model"

    @Test("a long email waits with all its chunks; it is as near as its nearest chunk; saving again replaces every chunk")
    func chunks() async throws {
        let store = try await StoreFixture(accounts: ["work"])
        try await store.add(1...2) { email in
            let n = Int(email.messageId.filter(\.isNumber)) ?? 0
            email.subject = n == 1 ? "Long" : "Short"
            email.bodyPlain = n == 1 ? "one two three four five six" : "seven"
            email.dateReceived = MailFixtures.referenceDate.addingTimeInterval(Double(n) * 60)
        }
        let index = GRDBSemanticIndex(database: store.database, chunker: EmbeddingChunker(wordsPerChunk: 3, maximumChunks: 4))
        let inputs = try await index.pendingInputs(modelId: Self.model, limit: 10)
        #expect(inputs.map(\.text) == ["Short. seven", "Long. one two three", "Long. four five six"])
        #expect(inputs.map(\.chunk) == [0, 0, 1])
        let (short, long) = (inputs[0].emailId, inputs[1].emailId)
        try await index.save([(short, [SemanticIndexTests.vector(1)]), (long, [SemanticIndexTests.vector(2), SemanticIndexTests.vector(0)])], modelId: Self.model)
        #expect(try await index.coverage(modelId: Self.model) == (2, 0))
        let nearest = try await index.nearest(to: SemanticIndexTests.vector(0), modelId: Self.model, filter: nil, limit: 10)
        #expect(nearest.map(\.emailId) == [long, short], "the long email's second chunk is the query's vector")
        #expect(abs(nearest[0].similarity - 1) < 1e-5)

        try await index.save([(long, [SemanticIndexTests.vector(2)])], modelId: Self.model)
        let again = try await index.nearest(to: SemanticIndexTests.vector(0), modelId: Self.model, filter: nil, limit: 10)
        #expect(again.allSatisfy { $0.similarity < 0.5 }, "the chunk saved before is gone")
        let rows = try await store.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM emailEmbedding") }
        #expect(rows == 2)
    }

    @Test("v11: issue 15's single vectors are dropped, so every email is read again in chunks")
    func migration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chunk-migration-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("store.sqlite").path
        let pool = try DatabasePool(path: path)
        try AppDatabase.migrator.migrate(pool, upTo: "v10-message-identity")
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO emailEmbedding(emailId, modelId, vector) VALUES ('e1', 'test-model', x'0000803f')")
        }
        try pool.close()

        let database = try AppDatabase.open(path: path)
        let columns = try await database.writer.read { db in try db.columns(in: "emailEmbedding").map(\.name) }
        #expect(columns == ["emailId", "chunk", "modelId", "vector"])
        #expect(try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM emailEmbedding") } == 0)
    }
}
