import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailTesting

/// The model in memory only while it is used (issue 15): loaded on first use, unloaded after a
/// quiet period, loaded again when asked; without a model, the words that say how to get one.
@Suite("AI model session: lazy load, unload when idle", .timeLimit(.minutes(5)))
struct AIModelSessionTests {
    static func session(idle: Duration, installed: Bool = true) throws -> AIModelSession<MiniLMEngine> {
        let directories = installed ? [AIModelCatalog.embeddingModelId: try AIModelFixture.installedMiniLMDirectory()] : [:]
        return AIModelSession(engine: MiniLMEngine(), library: FixedModelLibrary(directories),
                              modelId: AIModelCatalog.embeddingModelId, idleTimeout: idle)
    }

    @Test("nothing is loaded until used; a quiet period unloads it; the next use loads it again")
    func lazyAndIdle() async throws {
        let session = try Self.session(idle: .milliseconds(300))
        #expect(await session.isAvailable())
        #expect(await session.isLoaded == false, "building the session loads nothing")
        let first = try await session.embed("Quarterly budget review")
        #expect(first.count == 384)
        #expect(await session.isLoaded)
        try await waitUntil("the model unloaded after its quiet period", timeout: .seconds(20)) { await session.isLoaded == false }
        let again = try await session.embed("Quarterly budget review")
        #expect(await session.isLoaded)
        #expect(cosineSimilarity(first, again) > 0.9999, "the reloaded model gives the same vector")
        await session.unload()
        #expect(await session.isLoaded == false)
    }

    @Test("a session in use stays loaded: each use moves the quiet period on")
    func staysLoadedWhileUsed() async throws {
        let session = try Self.session(idle: .seconds(2))
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(3) {
            _ = try await session.embed("still in use")
            #expect(await session.isLoaded)
            try await Task.sleep(for: .milliseconds(200))
        }
        await session.unload()
    }

    @Test("without a model: not available, and using it says how to get one")
    func withoutModel() async throws {
        let session = try Self.session(idle: .seconds(60), installed: false)
        #expect(await session.isAvailable() == false)
        do {
            _ = try await session.embed("anything")
            Issue.record("embedding without a model must throw")
        } catch let error as AIError {
            #expect(error == .modelNotInstalled(modelId: AIModelCatalog.embeddingModelId, feature: "categories and search by meaning"))
            #expect(error.description.hasPrefix("Download a model to enable categories and search by meaning"))
        }
        #expect(await session.isLoaded == false)
    }
}
