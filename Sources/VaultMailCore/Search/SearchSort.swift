/// The order of search results.
public enum SearchSort: String, Sendable, Hashable, CaseIterable {
    /// Newest conversation (or message) first, as the thread list.
    case newest
    /// Best match first: bm25 over the text, favouring recent mail.
    case relevance
}
