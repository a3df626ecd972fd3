/// What searching reports: a query that could not be read (the user's to fix), or a store
/// that could not answer.
public enum SearchError: Error, Sendable, CustomStringConvertible {
    case invalidQuery(SearchQueryError)
    case failed(underlying: any Error)

    public var description: String {
        switch self {
        case .invalidQuery(let error): error.description
        case .failed(let underlying): "could not search the mail on this computer: \(underlying); try again"
        }
    }
}
