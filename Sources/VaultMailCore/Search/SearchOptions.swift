/// How many results, in which order, from where.
public struct SearchOptions: Sendable, Hashable {
    public var sort: SearchSort
    public var limit: Int
    public var cursor: SearchCursor?

    public init(sort: SearchSort = .newest, limit: Int = AppConstants.threadListPageSize, cursor: SearchCursor? = nil) {
        self.sort = sort
        self.limit = limit
        self.cursor = cursor
    }
}
