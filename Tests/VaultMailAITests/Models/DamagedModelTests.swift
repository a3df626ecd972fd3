import Foundation
import Testing
import VaultMailAI
import VaultMailCore
import VaultMailTesting

/// E-04: a model damaged after it was installed — a file cut short, removed, or written over —
/// is found when it is looked up or loaded, is offered again as damaged, and says how to
/// install it anew; nothing crashes.
@Suite("E-04: a model damaged after install is found at load and offered again", .timeLimit(.minutes(5)))
struct DamagedModelTests {
    @Test("E-04: a truncated file, a file written over with other bytes, and a missing file each make the model damaged; downloading again installs it")
    func damagedFiles() async throws {
        let bed = try ModelTestBed()
        let id = ModelTestBed.modelId
        let damages: [(String, (URL) throws -> Void)] = [
            ("has 1000 bytes where it should have 48000", { try Data(ModelTestBed.bytes(of: "model.safetensors").prefix(1000)).write(to: $0) }),
            ("was changed after it was installed", { url in
                var bytes = ModelTestBed.bytes(of: "model.safetensors")
                bytes[100] ^= 0xFF
                try bytes.write(to: url)
            }),
            ("is missing", { try FileManager.default.removeItem(at: $0) }),
        ]
        for (expected, damage) in damages {
            _ = try await bed.manager.download(id)
            #expect(bed.manager.state(of: id) == .installed)
            try damage(bed.url("model.safetensors"))
            guard case .damaged(let reason) = bed.manager.state(of: id) else {
                Issue.record("expected damaged, got \(bed.manager.state(of: id))")
                continue
            }
            #expect(reason.contains("model.safetensors") && reason.contains(expected), "\(reason)")
            #expect(bed.manager.installedDirectory(for: id) == nil, "a damaged model is never loaded")
            #expect(bed.manager.availableModels().first?.state == .damaged(reason: reason))
            #expect(throws: AIError.modelDamaged(modelId: id, reason: reason)) { try bed.manager.loadableDirectory(for: id, feature: "tests") }
            #expect(AIError.modelDamaged(modelId: id, reason: reason).description.contains("`vaultmail ai download \(id)`"))
        }
        _ = try await bed.manager.download(id)
        #expect(bed.manager.state(of: id) == .installed)
        #expect(bed.holdsPublishedFiles())
    }

    @Test("E-04: a file touched but unchanged is hashed again and still counts as installed")
    func touchedButIntact() async throws {
        let bed = try ModelTestBed()
        _ = try await bed.manager.download(ModelTestBed.modelId)
        try ModelTestBed.bytes(of: "vocab.txt").write(to: bed.url("vocab.txt"))
        #expect(bed.manager.state(of: ModelTestBed.modelId) == .installed)
    }

    @Test("E-04: the sentence model installed in a temp home, then cut short while loaded: the next use unloads it and says it is damaged and how to reinstall")
    func damagedWhileLoaded() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-damaged-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        let manager = AIModelManager(directory: home.appendingPathComponent("models"))
        let id = AIModelCatalog.embeddingModelId
        _ = try manager.install(id, from: [try AIModelFixture.installedMiniLMDirectory()])
        let session = AIModelSession(engine: MiniLMEngine(), library: manager, modelId: id, idleTimeout: .seconds(60))
        #expect(try await session.embed("Quarterly budget review").count == 384)
        #expect(await session.isLoaded)

        let weights = try manager.folder(for: id).appendingPathComponent("model.safetensors")
        let handle = try FileHandle(forWritingTo: weights)
        try handle.truncate(atOffset: 4096)
        try handle.close()
        do {
            _ = try await session.embed("Quarterly budget review")
            Issue.record("a damaged model must not be used")
        } catch let error as AIError {
            guard case .modelDamaged(let modelId, let reason) = error else { Issue.record("expected modelDamaged, got \(error)"); return }
            #expect(modelId == id && reason.contains("model.safetensors has 4096 bytes"))
            #expect(error.description.contains("is damaged") && error.description.contains("`vaultmail ai download \(id)`"))
        }
        #expect(await session.isLoaded == false, "what was in memory is let go")
        #expect(await session.isAvailable() == false)
    }
}
