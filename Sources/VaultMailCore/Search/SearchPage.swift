/// One page of search results.
public struct SearchPage<Hit: Sendable & Hashable>: Sendable, Hashable {
    public var hits: [Hit]
    /// Pass back to get the following page; nil when there is none.
    public var nextCursor: SearchCursor?
    public var hasMore: Bool { nextCursor != nil }

    public init(hits: [Hit], nextCursor: SearchCursor?) {
        self.hits = hits
        self.nextCursor = nextCursor
    }
}
