import Foundation
import Synchronization
import VaultMailCore

/// Summaries in memory, counting saves, for tests of `SummarizeThreadUseCase`.
public final class InMemoryThreadSummaryRepository: ThreadSummaryRepository {
    private let state = Mutex<(summaries: [String: ThreadSummary], saves: Int)>(([:], 0))

    public init() {}

    /// How many times `save` ran.
    public var saveCount: Int { state.withLock { $0.saves } }

    public func summary(threadId: String) async throws -> ThreadSummary? {
        state.withLock { $0.summaries[threadId] }
    }

    public func save(_ summary: ThreadSummary) async throws {
        state.withLock {
            $0.summaries[summary.threadId] = summary
            $0.saves += 1
        }
    }
}

/// The user's past replies, given by hand: answered email id → the reply.
public struct FixedReplyHistory: ReplyHistory {
    private let replies: [String: Email]

    public init(_ replies: [String: Email]) {
        self.replies = replies
    }

    public func replies(toEmailIds ids: [String]) async throws -> [String: Email] {
        replies.filter { ids.contains($0.key) }
    }
}

/// A `SemanticIndex` whose neighbours are given by hand, recording the vectors it was asked about.
public final class FixedSemanticIndex: SemanticIndex {
    private let neighbours: [ScoredEmail]
    private let asked = Mutex<[[Float]]>([])

    public init(neighbours: [ScoredEmail]) {
        self.neighbours = neighbours
    }

    /// The query vectors `nearest` received.
    public var queries: [[Float]] { asked.withLock { $0 } }

    public func pendingInputs(modelId: String, limit: Int) async throws -> [EmbeddingInput] { [] }

    public func save(_ vectors: [(emailId: String, vectors: [[Float]])], modelId: String) async throws {}

    public func nearest(to vector: [Float], modelId: String, filter: SearchQuery?, limit: Int) async throws -> [ScoredEmail] {
        asked.withLock { $0.append(vector) }
        return Array(neighbours.sorted { $0.similarity > $1.similarity }.prefix(limit))
    }

    public func coverage(modelId: String) async throws -> (embedded: Int, pending: Int) { (neighbours.count, 0) }
}
