import Foundation
import VaultMailAI
import VaultMailCore

extension AppDependencies {
    /// The generative model smart replies and summaries write with (SmolLM2 over llama.cpp),
    /// loaded on first use from `library`, on a thread of its own, and unloaded after
    /// `idleTimeout` unused, or at once when memory runs short (`LinuxMemoryPressure`, AC-P-03).
    public nonisolated static func textGenerator(library: any AIModelLibrary, idleTimeout: Duration = .seconds(30)) -> GenerationSession<LlamaEngine> {
        GenerationSession(engine: LlamaEngine(), library: library, modelId: AIModelCatalog.generationModelId, idleTimeout: idleTimeout,
                          memoryPressure: LinuxMemoryPressure())
    }
}
