import Foundation

/// Builds the expression tree from tokens. Precedence, lowest first: juxtaposition (or `AND`),
/// `OR`, then `-`/`NOT`; parentheses group. As in Gmail, `a b OR c` is `a AND (b OR c)`.
struct SearchParser {
    let text: String
    let tokens: [SearchToken]
    let dates: SearchDates
    private var index = 0

    init(text: String, tokens: [SearchToken], dates: SearchDates) {
        self.text = text
        self.tokens = tokens
        self.dates = dates
    }

    mutating func parse() throws(SearchQueryError) -> SearchExpression {
        guard !tokens.isEmpty else {
            throw SearchQueryError(query: text, position: 0, length: 1, reason: "the query is empty; type words to search for, or an operator such as from:alice")
        }
        let expression = try conjunction()
        if let stray = peek {
            throw error(stray, "this \")\" closes no \"(\"; remove it or add the \"(\" it belongs to")
        }
        return expression
    }

    private var peek: SearchToken? { index < tokens.count ? tokens[index] : nil }

    /// Terms side by side (or joined by `AND`), up to the end or a `)`.
    private mutating func conjunction() throws(SearchQueryError) -> SearchExpression {
        var items: [SearchExpression] = []
        while let token = peek, token.kind != .close {
            if token.kind == .and {
                guard !items.isEmpty else { throw error(token, "AND needs a term before it") }
                index += 1
                guard let next = peek, next.kind != .close else { throw error(token, "AND needs a term after it") }
            }
            items.append(try disjunction())
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    private mutating func disjunction() throws(SearchQueryError) -> SearchExpression {
        var items = [try unary()]
        while let token = peek, token.kind == .or {
            index += 1
            guard let next = peek, next.kind != .close, next.kind != .or, next.kind != .and else {
                throw error(token, "OR needs a term on each side, as in: from:alice OR from:bob")
            }
            items.append(try unary())
        }
        return items.count == 1 ? items[0] : .or(items)
    }

    private mutating func unary() throws(SearchQueryError) -> SearchExpression {
        guard let token = peek else { throw SearchQueryError(query: text, position: text.count, length: 1, reason: "the query ends too soon; add a term") }
        switch token.kind {
        case .minus, .not:
            index += 1
            guard let next = peek, next.kind != .close, next.kind != .or, next.kind != .and else {
                throw error(token, "\(token.kind == .minus ? "-" : "NOT") needs a term right after it, as in -unsubscribe")
            }
            return .not(try unary())
        case .open:
            index += 1
            if let next = peek, next.kind == .close {
                throw SearchQueryError(query: text, position: token.position, length: next.position - token.position + 1,
                                       reason: "the parentheses are empty; put terms inside them or remove them")
            }
            let inner = try conjunction()
            guard let close = peek, close.kind == .close else {
                throw error(token, "this \"(\" is never closed; add a \")\"")
            }
            index += 1
            return inner
        case .close:
            throw error(token, "this \")\" closes no \"(\"; remove it or add the \"(\" it belongs to")
        case .or:
            throw error(token, "OR needs a term on each side, as in: from:alice OR from:bob")
        case .and:
            throw error(token, "AND needs a term before it")
        case .word(let word):
            index += 1
            return .term(try self.word(word, token))
        case .phrase(let phrase):
            index += 1
            return .term(.phrase(phrase))
        case .field(let name, let value):
            index += 1
            return .term(try field(name, value, token))
        }
    }

    private func word(_ word: String, _ token: SearchToken) throws(SearchQueryError) -> SearchTerm {
        let prefix = word.hasSuffix("*")
        let stem = prefix ? String(word.dropLast()) : word
        guard stem.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw error(token, "\"\(word)\" has no letter or digit to search for; remove it or put it in quotes with a word")
        }
        return .word(stem, prefix: prefix)
    }

    private func field(_ name: String, _ value: String, _ token: SearchToken) throws(SearchQueryError) -> SearchTerm {
        let lowered = value.lowercased()
        func bad(_ expected: String) -> SearchQueryError {
            error(token, "\"\(name):\(value)\" is not understood; expected \(expected)")
        }
        switch name {
        case "from", "to", "cc", "subject", "filename":
            guard value.contains(where: { $0.isLetter || $0.isNumber }) else {
                throw bad("letters or digits to look for (\(SearchLexer.example(name)))")
            }
            return .field(SearchField(rawValue: name) ?? .subject, value)
        case "has":
            guard lowered == "attachment" || lowered == "attachments" else { throw bad("has:attachment") }
            return .hasAttachment
        case "is":
            guard let flag = SearchFlag(rawValue: lowered) else { throw bad("is:unread, is:read or is:starred") }
            return .flag(flag)
        case "in":
            return .folder(value)
        case "account":
            return .account(value)
        case "category":
            guard let category = AICategory(rawValue: lowered) else {
                throw bad("one of " + AICategory.allCases.map { "category:\($0.rawValue)" }.joined(separator: ", "))
            }
            return .category(category)
        case "after", "before":
            guard let day = dates.startOfDay(value) else { throw bad("a date such as \(name):2024-01-31 or \(name):2024/01/31") }
            return name == "after" ? .receivedOnOrAfter(day) : .receivedBefore(day)
        default: // older_than, newer_than
            guard let instant = dates.ago(value) else { throw bad("an age such as \(name):7d (days), 2w (weeks), 2m (months) or 1y (years)") }
            return name == "newer_than" ? .receivedOnOrAfter(instant) : .receivedBefore(instant)
        }
    }

    private func error(_ token: SearchToken, _ reason: String) -> SearchQueryError {
        SearchQueryError(query: text, position: token.position, length: token.length, reason: reason)
    }
}
