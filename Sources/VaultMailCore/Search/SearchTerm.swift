import Foundation

/// One condition of a search query: a word, a phrase, or an operator with its value.
public enum SearchTerm: Sendable, Hashable {
    /// A bare word; `prefix` when it ended with `*` (`invoic*`).
    case word(String, prefix: Bool)
    /// `"an exact phrase"`: these words, next to each other, in this order.
    case phrase(String)
    /// `from:`, `to:`, `cc:`, `subject:`, `filename:` with the text to look for.
    case field(SearchField, String)
    /// `has:attachment`
    case hasAttachment
    /// `is:unread`, `is:read`, `is:starred`
    case flag(SearchFlag)
    /// `in:inbox`, `in:sent`, … or `in:FOLDER` (a folder's name or path).
    case folder(String)
    /// `account:NAME` (the account's name or address).
    case account(String)
    /// `category:promotions`
    case category(AICategory)
    /// `after:`, `newer_than:`: received at or after this instant.
    case receivedOnOrAfter(Date)
    /// `before:`, `older_than:`: received before this instant.
    case receivedBefore(Date)
}

/// The header (or part) a field operator looks in.
public enum SearchField: String, Sendable, Hashable, CaseIterable {
    case from, to, cc, subject, filename
}

/// The state an `is:` operator asks for.
public enum SearchFlag: String, Sendable, Hashable, CaseIterable {
    case unread, read, starred
}
