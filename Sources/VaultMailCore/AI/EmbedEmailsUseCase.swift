import Foundation

/// Gives every email its sentence vector for search by meaning (AC-A-07): in the daemon after
/// each sync, and before `vaultmail search --semantic` for mail no model has read yet.
public struct EmbedEmailsUseCase: Sendable {
    /// Emails embedded per round trip to the store.
    public static let batchSize = 64

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
            try await index.save(zip(inputs, vectors).map { ($0.emailId, $1) }, modelId: embedder.modelId)
            done += inputs.count
            progress?(done, max(total, done))
            inputs = try await index.pendingInputs(modelId: embedder.modelId, limit: Self.batchSize)
        }
        return done
    }

    /// The text an email's vector is made from: its subject and the first 300 characters of its
    /// opening text (`CategorizationInput.openingText`). The categorizer reads the same text, so
    /// a vector it computed is stored for search by meaning and never computed twice.
    public static func text(subject: String, opening: String) -> String {
        "\(subject). \(opening.prefix(300))"
    }
}
