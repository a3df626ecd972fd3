import Foundation

/// Gives every email its sentence vectors for search by meaning (AC-A-07), one per chunk of
/// what its sender wrote (`EmbeddingChunker`): in the daemon after each sync, and before
/// `vaultmail search --semantic` for mail no model has read yet.
public struct EmbedEmailsUseCase: Sendable {
    /// Emails embedded per round trip to the store (up to `EmbeddingChunker.maximumChunks`
    /// texts each).
    public static let batchSize = 16

    private let index: any SemanticIndex
    private let embedder: any TextEmbedder

    public init(index: any SemanticIndex, embedder: any TextEmbedder) {
        self.index = index
        self.embedder = embedder
    }

    /// Embeds pending emails, newest first, until none is left or the task is cancelled;
    /// `progress` hears (done, still pending when it started). Returns how many were embedded.
    /// Without a model it embeds nothing and returns 0.
    @discardableResult
    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> Int {
        guard await embedder.isAvailable() else { return 0 }
        var inputs = try await index.pendingInputs(modelId: embedder.modelId, limit: Self.batchSize)
        if inputs.isEmpty { return 0 }
        // Counted only when there is something to read: a search by meaning pays for no count.
        let total = progress == nil ? 0 : try await index.coverage(modelId: embedder.modelId).pending
        var done = 0
        while !inputs.isEmpty, !Task.isCancelled {
            let vectors = try await embedder.embed(inputs.map(\.text))
            let emails = Self.grouped(inputs, vectors)
            try await index.save(emails, modelId: embedder.modelId)
            done += emails.count
            progress?(done, max(total, done))
            inputs = try await index.pendingInputs(modelId: embedder.modelId, limit: Self.batchSize)
        }
        return done
    }

    /// Each email's vectors in chunk order, emails in the order of their first chunk.
    static func grouped(_ inputs: [EmbeddingInput], _ vectors: [[Float]]) -> [(emailId: String, vectors: [[Float]])] {
        var emails: [(emailId: String, vectors: [[Float]])] = []
        for (input, vector) in zip(inputs, vectors) {
            if let last = emails.last, last.emailId == input.emailId {
                emails[emails.count - 1].vectors.append(vector)
            } else {
                emails.append((input.emailId, [vector]))
            }
        }
        return emails
    }
}
