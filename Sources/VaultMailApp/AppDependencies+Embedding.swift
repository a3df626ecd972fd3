import Foundation
import VaultMailAI
import VaultMailCore

extension AppDependencies {
    /// The sentence model categories and search by meaning read with (all-MiniLM-L6-v2 over
    /// OpenBLAS), loaded on first use from `library` and unloaded after `idleTimeout` unused, or
    /// at once when memory runs short (`LinuxMemoryPressure`, AC-P-03).
    public nonisolated static func textEmbedder(library: any AIModelLibrary, idleTimeout: Duration = .seconds(30)) -> AIModelSession<MiniLMEngine> {
        AIModelSession(engine: MiniLMEngine(), library: library, modelId: AIModelCatalog.embeddingModelId, idleTimeout: idleTimeout,
                       memoryPressure: LinuxMemoryPressure())
    }
}
