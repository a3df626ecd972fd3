import Foundation
import Synchronization
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailTesting

/// Memory pressure a test switches on and off, counting how often it was asked.
final class FakeMemoryPressure: MemoryPressureSource {
    private let state = Mutex((short: false, asked: 0))
    func set(_ short: Bool) { state.withLock { $0.short = short } }
    var asked: Int { state.withLock { $0.asked } }
    func isUnderPressure() -> Bool { state.withLock { $0.asked += 1; return $0.short } }
}

/// AC-P-03: an idle model leaves memory after 30 s, and at once under memory pressure.
@Suite("AC-P-03: models unloaded after 30 s idle and at once under memory pressure", .timeLimit(.minutes(5)))
struct ModelUnloadPolicyTests {
    @Test("AC-P-03: the rule — 30 s idle by default, at once when memory is short, asked again within the check interval")
    func rule() {
        let pressure = FakeMemoryPressure()
        let policy = ModelUnloadPolicy(pressure: pressure)
        #expect(policy.idleTimeout == .seconds(30))
        #expect(!policy.shouldUnload(idleFor: .seconds(1)))
        #expect(policy.shouldUnload(idleFor: .seconds(30)))
        #expect(policy.nextCheck(idleFor: .seconds(1)) == .seconds(1))
        pressure.set(true)
        #expect(policy.shouldUnload(idleFor: .zero))
        let without = ModelUnloadPolicy(idleTimeout: .seconds(30))
        #expect(without.nextCheck(idleFor: .seconds(10)) == .seconds(20), "without a source, nothing is polled")
    }

    @Test("AC-P-03: the sentence model, loaded and idle, is unloaded as soon as memory runs short, long before its quiet period")
    func sentenceModelUnderPressure() async throws {
        let pressure = FakeMemoryPressure()
        let session = AIModelSession(engine: MiniLMEngine(), library: FixedModelLibrary([AIModelCatalog.embeddingModelId: try AIModelFixture.installedMiniLMDirectory()]),
                                     modelId: AIModelCatalog.embeddingModelId, idleTimeout: .seconds(600), memoryPressure: pressure)
        _ = try await session.embed("Quarterly budget review")
        #expect(await session.isLoaded)
        try await waitUntil("memory watched while loaded", timeout: .seconds(10)) { pressure.asked > 0 }
        #expect(await session.isLoaded, "no pressure, no unload")
        pressure.set(true)
        try await waitUntil("unloaded under pressure", timeout: .seconds(10)) { await session.isLoaded == false }
    }

    @Test("AC-P-03: the writing model, idle after a generation, is unloaded as soon as memory runs short")
    func writingModelUnderPressure() async throws {
        let pressure = FakeMemoryPressure()
        let library = FixedModelLibrary([AIModelCatalog.generationModelId: try AIModelFixture.installedGenerationDirectory()])
        let session = GenerationSession(engine: LlamaEngine(threads: 2), library: library, modelId: AIModelCatalog.generationModelId,
                                        idleTimeout: .seconds(600), memoryPressure: pressure)
        for try await _ in session.generate(GenerationRequest(turns: [ChatTurn(.user, "Say hello.")], maxTokens: 4)) {}
        #expect(session.isLoaded)
        pressure.set(true)
        try await waitUntil("unloaded under pressure", timeout: .seconds(10)) { session.isLoaded == false }
    }
}
