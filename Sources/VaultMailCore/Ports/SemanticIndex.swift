import Foundation

/// One text of an email that a sentence vector is made from: chunk `chunk` of its
/// `EmbeddingChunker` chunks (0 is the first).
public struct EmbeddingInput: Sendable, Hashable {
    public var emailId: String
    public var chunk: Int
    public var text: String

    public init(emailId: String, chunk: Int = 0, text: String) {
        self.emailId = emailId
        self.chunk = chunk
        self.text = text
    }
}

/// An email and how close its nearest vector (its best chunk) is to a query's (cosine, -1…1).
public struct ScoredEmail: Sendable, Hashable {
    public var emailId: String
    public var similarity: Float

    public init(emailId: String, similarity: Float) {
        self.emailId = emailId
        self.similarity = similarity
    }
}

/// The store's sentence vectors (AC-A-07): which emails still need one, and the nearest to a
/// query's, within what a query's operators allow.
public protocol SemanticIndex: Sendable {
    /// The chunks of at most `limit` emails without vectors of `modelId`, newest first, every
    /// chunk of an email together and in order.
    func pendingInputs(modelId: String, limit: Int) async throws -> [EmbeddingInput]
    /// Stores each email's vectors (unit length, one per chunk, in chunk order), replacing all
    /// it had before.
    func save(_ vectors: [(emailId: String, vectors: [[Float]])], modelId: String) async throws
    /// The `limit` emails nearest to `vector`, best first, each scored by its nearest chunk;
    /// only those `filter` matches when given (a query of operators: `from:`, `after:`, `in:` …).
    func nearest(to vector: [Float], modelId: String, filter: SearchQuery?, limit: Int) async throws -> [ScoredEmail]
    /// How many emails have a vector of `modelId`, and how many have none yet.
    func coverage(modelId: String) async throws -> (embedded: Int, pending: Int)
}
