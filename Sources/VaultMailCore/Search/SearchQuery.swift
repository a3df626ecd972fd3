import Foundation

/// A search query as typed and as read (the language of Gmail and notmuch: words, "phrases",
/// `-word`, `OR`, parentheses and operators such as `from:` and `after:`; see docs/cli.md).
public struct SearchQuery: Sendable, Hashable {
    /// The text the user typed.
    public var text: String
    public var expression: SearchExpression

    public init(text: String, expression: SearchExpression) {
        self.text = text
        self.expression = expression
    }

    /// Reads `text`. Dates (`after:2024-01-31`, `older_than:7d`) are resolved against `now`
    /// in `timeZone`: a day starts at local midnight.
    public static func parse(_ text: String, now: Date, timeZone: TimeZone) throws(SearchQueryError) -> SearchQuery {
        var lexer = SearchLexer(text)
        let tokens = try lexer.tokens()
        var parser = SearchParser(text: text, tokens: tokens, dates: SearchDates(now: now, timeZone: timeZone))
        return SearchQuery(text: text, expression: try parser.parse())
    }

    /// This query limited by one more term (e.g. `--account`).
    public func and(_ term: SearchTerm) -> SearchQuery {
        switch expression {
        case .and(let items): SearchQuery(text: text, expression: .and(items + [.term(term)]))
        default: SearchQuery(text: text, expression: .and([expression, .term(term)]))
        }
    }
}
