import Foundation

/// Searches the local mail (issue 14): reads the query in the user's time zone, then asks the
/// index. Every failure comes out as a `SearchError`.
public struct SearchMailUseCase: Sendable {
    private let search: any MailSearch
    private let clock: any WallClock

    public init(search: any MailSearch, clock: any WallClock = SystemWallClock()) {
        self.search = search
        self.clock = clock
    }

    /// Reads a query; `account` limits it to one account (by name or address).
    public func parse(_ text: String, account: String? = nil) throws(SearchError) -> SearchQuery {
        do {
            let query = try SearchQuery.parse(text, now: clock.now, timeZone: clock.timeZone)
            return account.map { query.and(.account($0)) } ?? query
        } catch {
            throw .invalidQuery(error)
        }
    }

    /// A page of matching conversations.
    public func threads(_ text: String, account: String? = nil, options: SearchOptions = SearchOptions()) async throws(SearchError) -> SearchPage<ThreadSearchHit> {
        let query = try parse(text, account: account)
        return try await run { try await search.searchThreads(query, options: options) }
    }

    /// A page of matching messages.
    public func messages(_ text: String, account: String? = nil, options: SearchOptions = SearchOptions()) async throws(SearchError) -> SearchPage<MessageSearchHit> {
        let query = try parse(text, account: account)
        return try await run { try await search.searchMessages(query, options: options) }
    }

    /// How many conversations (or messages) match.
    public func count(_ text: String, account: String? = nil, messages: Bool = false) async throws(SearchError) -> Int {
        let query = try parse(text, account: account)
        return try await run { try await search.count(query, messages: messages) }
    }

    private func run<T>(_ body: () async throws -> T) async throws(SearchError) -> T {
        do {
            return try await body()
        } catch let error as SearchError {
            throw error
        } catch {
            throw .failed(underlying: error)
        }
    }
}
