import Foundation

/// The text of an email that its sentence vector is made from: the subject and the opening
/// of the body.
public struct EmbeddingInput: Sendable, Hashable {
    public var emailId: String
    public var text: String

    public init(emailId: String, text: String) {
        self.emailId = emailId
        self.text = text
    }
}

/// An email and how close its vector is to a query's (cosine, -1…1).
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
    /// Emails without a vector of `modelId`, newest first.
    func pendingInputs(modelId: String, limit: Int) async throws -> [EmbeddingInput]
    /// Stores vectors (unit length, `dimensions` floats each), replacing older ones.
    func save(_ vectors: [(emailId: String, vector: [Float])], modelId: String) async throws
    /// The `limit` emails nearest to `vector`, best first; only those `filter` matches when
    /// given (a query of operators: `from:`, `after:`, `in:` …).
    func nearest(to vector: [Float], modelId: String, filter: SearchQuery?, limit: Int) async throws -> [ScoredEmail]
    /// How many emails have a vector of `modelId`, and how many have none yet.
    func coverage(modelId: String) async throws -> (embedded: Int, pending: Int)
}
