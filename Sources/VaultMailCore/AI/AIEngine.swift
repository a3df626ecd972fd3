import Foundation

/// The spec's `AIEngineProtocol` (AC-A-02): an engine that loads a model from a folder of
/// files, runs it, and unloads it, freeing its memory. Callers never see an engine: they use a
/// feature protocol (`TextEmbedder`), so another engine can replace this one without them
/// changing. Engines live in adapter modules (`VaultMailAI`), never in Core.
public protocol AIEngine: Sendable {
    /// True when `directory` holds every file this engine needs to load its model.
    func isModelAvailable(at directory: URL) -> Bool
    /// Loads the model in `directory` into memory; a second call with the same folder does nothing.
    func loadModel(path directory: URL) async throws
    /// Frees the model's memory. Safe to call when nothing is loaded.
    func unloadModel() async
    /// True while a model is in memory.
    var isLoaded: Bool { get async }
}

/// An engine that turns texts into unit-length vectors of `dimensions` floats
/// (a sentence-embedding model such as all-MiniLM-L6-v2).
public protocol EmbeddingEngine: AIEngine {
    var dimensions: Int { get }
    /// One L2-normalised vector per text, in order. Throws `AIError.modelNotLoaded` when no
    /// model is in memory.
    func embed(_ texts: [String]) async throws -> [[Float]]
}
