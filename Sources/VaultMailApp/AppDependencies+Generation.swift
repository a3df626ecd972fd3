import Foundation
import VaultMailAI
import VaultMailCore

extension AppDependencies {
    /// The generative model smart replies and summaries write with (SmolLM2 over llama.cpp),
    /// loaded on first use from `library`, on a thread of its own, and unloaded after
    /// `idleTimeout` unused.
    public nonisolated static func textGenerator(library: any AIModelLibrary, idleTimeout: Duration = .seconds(300)) -> GenerationSession<LlamaEngine> {
        GenerationSession(engine: LlamaEngine(), library: library, modelId: AIModelCatalog.generationModelId, idleTimeout: idleTimeout)
    }
}
