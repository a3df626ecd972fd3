/// A piece of a query as the lexer reads it, with where it starts (characters from 0).
struct SearchToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case word(String)
        case phrase(String)
        /// `name:value` (the value may have been a "quoted phrase").
        case field(name: String, value: String)
        case open, close, minus, or, and, not
    }

    var kind: Kind
    var position: Int
    var length: Int
}
