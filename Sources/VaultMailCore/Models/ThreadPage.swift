import Foundation

/// Where the next page of a thread list starts: the last thread shown, by `latestDate`
/// and then id, so threads with the same date are neither lost nor repeated across pages.
public struct ThreadCursor: Sendable, Codable, Hashable {
    public var date: Date
    public var threadId: String

    public init(date: Date, threadId: String) {
        self.date = date
        self.threadId = threadId
    }

    /// The cursor as text for a command line: `<milliseconds since 1970>:<thread id>`.
    public var encoded: String {
        "\(Int64((date.timeIntervalSince1970 * 1000).rounded())):\(threadId)"
    }

    /// Reads `encoded`; `nil` when the text is not a cursor.
    public init?(encoded: String) {
        guard let colon = encoded.firstIndex(of: ":"),
              let millis = Int64(encoded[..<colon]) else { return nil }
        let id = String(encoded[encoded.index(after: colon)...])
        guard !id.isEmpty else { return nil }
        self.init(date: Date(timeIntervalSince1970: Double(millis) / 1000), threadId: id)
    }
}

/// One page of a thread list, newest first (AC-U-13).
public struct ThreadPage: Sendable, Hashable {
    public var threads: [EmailThread]
    /// Pass to the next call to get the following page; `nil` when there is none.
    public var nextCursor: ThreadCursor?
    public var hasMore: Bool

    public init(threads: [EmailThread], nextCursor: ThreadCursor?, hasMore: Bool) {
        self.threads = threads
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }

    public static let empty = ThreadPage(threads: [], nextCursor: nil, hasMore: false)
}
