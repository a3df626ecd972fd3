import Foundation

/// Where the next page of results starts. Newest-first pages continue after the last row
/// shown (its date, then id), so rows that arrive meanwhile neither repeat nor go missing;
/// relevance pages continue at an offset.
public enum SearchCursor: Sendable, Hashable {
    case after(date: Date, id: String)
    case offset(Int)

    /// As text for a command line or a URL: `<milliseconds since 1970>:<id>` or `+<offset>`.
    public var encoded: String {
        switch self {
        case .after(let date, let id): ThreadCursor(date: date, threadId: id).encoded
        case .offset(let offset): "+\(offset)"
        }
    }

    /// Reads `encoded`; nil when the text is not a cursor.
    public init?(encoded: String) {
        if encoded.hasPrefix("+") {
            guard let offset = Int(encoded.dropFirst()), offset >= 0 else { return nil }
            self = .offset(offset)
        } else if let cursor = ThreadCursor(encoded: encoded) {
            self = .after(date: cursor.date, id: cursor.threadId)
        } else {
            return nil
        }
    }
}
