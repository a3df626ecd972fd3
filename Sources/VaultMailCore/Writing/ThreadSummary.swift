import Foundation

/// How a summary was made (AC-A-06).
public enum ThreadSummaryKind: String, Sendable, Codable, Hashable {
    /// Written by the on-device generative model.
    case model
    /// The conversation's most central sentences, chosen with sentence vectors (no generative
    /// model installed); shown labelled as such.
    case extractive
    /// The same key sentences, because what the generative model wrote did not pass the checks
    /// (it invented a fact, wrote its instructions back, or said too little).
    case extractiveFallback

    /// Key sentences of the conversation rather than text a model wrote.
    public var isExtractive: Bool { self != .model }
}

/// Two to four sentences on a conversation: the decision or the action items and who owns them.
public struct ThreadSummary: Sendable, Codable, Hashable {
    public var threadId: String
    public var text: String
    public var kind: ThreadSummaryKind
    /// The model that wrote it (nil for an extractive one without vectors).
    public var modelId: String?
    /// How many messages and which latest one it covers: new mail makes it stale.
    public var messageCount: Int
    public var latestEmailId: String
    public var createdAt: Date

    public init(threadId: String, text: String, kind: ThreadSummaryKind, modelId: String?,
                messageCount: Int, latestEmailId: String, createdAt: Date) {
        self.threadId = threadId
        self.text = text
        self.kind = kind
        self.modelId = modelId
        self.messageCount = messageCount
        self.latestEmailId = latestEmailId
        self.createdAt = createdAt
    }
}

/// Summaries kept with their conversations, so a revisit never regenerates one.
public protocol ThreadSummaryRepository: Sendable {
    /// The stored summary of a thread, whatever it covers (the caller checks it is current).
    func summary(threadId: String) async throws -> ThreadSummary?
    /// Stores a summary, replacing the thread's older one.
    func save(_ summary: ThreadSummary) async throws
}
