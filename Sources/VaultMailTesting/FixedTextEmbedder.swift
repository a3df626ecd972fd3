import Foundation
import VaultMailCore

/// A `TextEmbedder` that answers from a table of known texts, for tests of what uses vectors
/// (store scans, rank fusion) apart from the model. Tests of meaning use the real model.
public struct FixedTextEmbedder: TextEmbedder {
    public let modelId: String
    public let dimensions: Int
    private let vectors: [String: [Float]]
    private let installed: Bool

    public init(modelId: String, vectors: [String: [Float]], installed: Bool = true) {
        self.modelId = modelId
        self.vectors = vectors
        self.dimensions = vectors.values.first?.count ?? 4
        self.installed = installed
    }

    public func isAvailable() async -> Bool { installed }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        guard installed else { throw AIError.modelNotInstalled(modelId: modelId, feature: "search by meaning") }
        return try texts.map { text in
            guard let vector = vectors[text] else { throw AIError.modelUnreadable(path: "FixedTextEmbedder", reason: "no vector for '\(text)'") }
            return vector
        }
    }
}
