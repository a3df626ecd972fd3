/// The search index over the local store (issue 14). Queries arrive parsed, their dates
/// resolved; results come newest first or by relevance, a page at a time.
public protocol MailSearch: Sendable {
    /// Conversations with at least one matching message.
    func searchThreads(_ query: SearchQuery, options: SearchOptions) async throws -> SearchPage<ThreadSearchHit>
    /// Matching messages, one row each.
    func searchMessages(_ query: SearchQuery, options: SearchOptions) async throws -> SearchPage<MessageSearchHit>
    /// How many conversations (or, with `messages`, messages) match.
    func count(_ query: SearchQuery, messages: Bool) async throws -> Int
    /// The ids of matching emails, best match first (by relevance when the query has words,
    /// else newest first), at most `limit`.
    func rankedEmailIds(_ query: SearchQuery, limit: Int) async throws -> [String]
    /// One hit per conversation of these emails, in their order (a conversation's first email
    /// stands for it), the text around `query`'s words marked.
    func threadHits(emailIds: [String], query: SearchQuery) async throws -> [ThreadSearchHit]
}
