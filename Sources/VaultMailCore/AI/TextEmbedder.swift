import Foundation

/// What features (categorization, semantic search) use to read meaning: texts in, unit
/// vectors out. `AIModelSession` implements it over any `EmbeddingEngine`.
public protocol TextEmbedder: Sendable {
    /// The catalog id of the model the vectors come from; vectors of different models are
    /// never compared.
    var modelId: String { get }
    var dimensions: Int { get }
    /// True when the model is installed (it may not be loaded yet).
    func isAvailable() async -> Bool
    /// Vectors for `texts`; throws `AIError.modelNotInstalled` when there is no model.
    func embed(_ texts: [String]) async throws -> [[Float]]
}

extension TextEmbedder {
    /// The vector of one text.
    public func embed(_ text: String) async throws -> [Float] {
        try await embed([text])[0]
    }
}

/// Cosine similarity of two unit vectors (their dot product).
public func cosineSimilarity(_ a: [Float], _ b: [Float]) -> Float {
    precondition(a.count == b.count, "vectors of different models are never compared")
    var sum: Float = 0
    for index in a.indices { sum += a[index] * b[index] }
    return sum
}
