/// A query that could not be read: where (a character offset into the query), the part that
/// could not be read, and what was expected there.
public struct SearchQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The query as typed.
    public var query: String
    /// Offset of the unreadable part, in characters from the start (0-based).
    public var position: Int
    /// How many characters the unreadable part spans (at least 1 for the caret line).
    public var length: Int
    /// What was wrong and what to type instead.
    public var reason: String

    public init(query: String, position: Int, length: Int, reason: String) {
        self.query = query
        self.position = position
        self.length = max(1, length)
        self.reason = reason
    }

    public var description: String {
        "cannot read the search query at character \(position + 1): \(reason)"
    }

    /// The query with a caret line under the part that could not be read.
    public var pointer: String {
        let oneLine = query.map { $0.isNewline ? " " : $0 }
        return String(oneLine) + "\n" + String(repeating: " ", count: position) + String(repeating: "^", count: length)
    }
}
