import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailTesting

/// The queue in front of the generative model: one request at a time on its own thread,
/// stale requests dropped, the model loaded on demand and unloaded when idle.
@Suite("GenerationSession", .serialized)
struct GenerationSessionTests {
    static let modelId = AIModelCatalog.generationModelId

    static func request(_ text: String, key: String? = nil, maxTokens: Int = 24) -> GenerationRequest {
        GenerationRequest(turns: [ChatTurn(.system, "You answer in one short sentence."), ChatTurn(.user, text)],
                          maxTokens: maxTokens, key: key)
    }

    static func realSession(idleTimeout: Duration = .seconds(300)) throws -> GenerationSession<LlamaEngine> {
        let library = FixedModelLibrary([modelId: try AIModelFixture.installedGenerationDirectory()])
        return GenerationSession(engine: LlamaEngine(threads: 2), library: library, modelId: modelId, idleTimeout: idleTimeout)
    }

    @Test("without a model it says which to download, and loads nothing")
    func noModel() async {
        let session = GenerationSession(engine: LlamaEngine(), library: FixedModelLibrary([:]), modelId: Self.modelId)
        #expect(!(await session.isAvailable()))
        await #expect(throws: AIError.modelNotInstalled(modelId: Self.modelId, feature: "smart replies and summaries")) {
            _ = try await session.complete(Self.request("Hello"))
        }
        #expect(!session.isLoaded)
    }

    @Test("loads the real model on first use and streams its answer")
    func streams() async throws {
        let session = try Self.realSession()
        #expect(await session.isAvailable())
        #expect(!session.isLoaded)
        var pieces: [String] = []
        for try await piece in session.generate(Self.request("What is the capital of France?")) { pieces.append(piece) }
        #expect(pieces.joined().contains("Paris"), "answer: \(pieces.joined())")
        #expect(pieces.count > 1)
        #expect(session.isLoaded)
        session.unload()
        #expect(!session.isLoaded)
    }

    @Test("a newer request with the same key supersedes the queued one; other keys still run")
    func supersedes() async throws {
        let session = try Self.realSession()
        defer { session.unload() }
        // `generate` queues at once, in call order.
        let busy = session.generate(Self.request("Write a long story about a lighthouse.", maxTokens: 120))
        let stale = session.generate(Self.request("Say hello.", key: "reply:t1"))
        let fresh = session.generate(Self.request("What is the capital of France?", key: "reply:t1"))
        let other = session.generate(Self.request("What is the capital of Italy?", key: "summary:t2"))
        #expect(try await Self.text(of: busy).count > 20)
        await #expect(throws: CancellationError.self) { _ = try await Self.text(of: stale) }
        #expect(try await Self.text(of: fresh).contains("Paris"))
        #expect(try await Self.text(of: other).contains("Rome"))
    }

    static func text(of stream: AsyncThrowingStream<String, any Error>) async throws -> String {
        var text = ""
        for try await piece in stream { text += piece }
        return text
    }

    @Test("a reader that goes away stops its generation, and the next request runs at once")
    func readerGoesAway() async throws {
        let engine = CountingEngine()
        let library = FixedModelLibrary([Self.modelId: try AIModelFixture.installedGenerationDirectory()])
        let session = GenerationSession(engine: engine, library: library, modelId: Self.modelId, idleTimeout: .seconds(300))
        defer { session.unload() }
        let reader = Task {
            var count = 0
            // Counting on from "1, 2, 3," goes on for the whole token limit.
            var counting = Self.request("Count from 1 to 1000, separated by commas.", key: "story", maxTokens: 2000)
            counting.answerPrefix = "1, 2, 3,"
            for try await _ in session.generate(counting) {
                count += 1
                if count == 3 { break }
            }
            return count
        }
        #expect(try await reader.value == 3)
        let answer = try await session.complete(Self.request("What is the capital of France?"))
        #expect(answer.contains("Paris"))
        // The abandoned story did not run on in front of it: counted in pieces the engine
        // decoded, not seconds, which a loaded machine stretches.
        #expect(engine.pieces("story") < 500, "the abandoned story decoded \(engine.pieces("story")) of its 2,000 tokens")
    }

    /// The real engine, counting the pieces each generation decoded, by its request's key.
    final class CountingEngine: GenerativeEngine, @unchecked Sendable {
        // @unchecked: `counts` is only touched under `lock`; LlamaEngine is Sendable.
        private let inner = LlamaEngine(threads: 2)
        private let lock = NSLock()
        private var counts: [String: Int] = [:]

        func pieces(_ key: String) -> Int { lock.withLock { counts[key] ?? 0 } }

        func isModelAvailable(at directory: URL) -> Bool { inner.isModelAvailable(at: directory) }
        func load(from directory: URL) throws { try inner.load(from: directory) }
        func unload() { inner.unload() }
        var isModelLoaded: Bool { inner.isModelLoaded }

        func generate(_ request: GenerationRequest, emit: (String) -> Bool) throws -> GenerationStatistics {
            try inner.generate(request) { piece in
                lock.withLock { counts[request.key ?? "", default: 0] += 1 }
                return emit(piece)
            }
        }
    }

    @Test("the model is unloaded after the quiet period and loaded again when asked")
    func idleUnload() async throws {
        let session = try Self.realSession(idleTimeout: .milliseconds(300))
        _ = try await session.complete(Self.request("Say hello."))
        #expect(session.isLoaded)
        let deadline = ContinuousClock.now + .seconds(30)
        while session.isLoaded, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!session.isLoaded)
        _ = try await session.complete(Self.request("Say hello."))
        #expect(session.isLoaded)
        session.unload()
    }

    @Test("more waiting requests than the queue holds: the oldest are dropped")
    func boundedQueue() async throws {
        let library = FixedModelLibrary([Self.modelId: try AIModelFixture.installedGenerationDirectory()])
        let session = GenerationSession(engine: LlamaEngine(threads: 2), library: library, modelId: Self.modelId, maxQueued: 2)
        defer { session.unload() }
        var busy = session.generate(Self.request("Write a long story about a lighthouse.", maxTokens: 120)).makeAsyncIterator()
        // Its first piece: it has left the queue and runs.
        #expect(try await busy.next() != nil)
        let waiting = (0..<4).map { session.generate(Self.request("Say the number \($0).", maxTokens: 8)) }
        while try await busy.next() != nil {}
        var outcomes: [Bool] = []
        for stream in waiting {
            do { _ = try await Self.text(of: stream); outcomes.append(true) } catch is CancellationError { outcomes.append(false) }
        }
        #expect(outcomes == [false, false, true, true])
    }
}
