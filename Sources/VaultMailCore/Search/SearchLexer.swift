/// Splits a query into words, "phrases", `name:value` operators, parentheses, `-`, `OR`,
/// `AND` and `NOT`. Positions count characters, so errors can point at what the user typed.
struct SearchLexer {
    /// Operator names the parser understands; any other `name:` is an error (a typo such as
    /// `form:` should not silently search for the text "form").
    static let operators: Set<String> = [
        "from", "to", "cc", "subject", "filename", "has", "is", "in", "account", "category",
        "after", "before", "older_than", "newer_than",
    ]

    private let text: String
    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        self.text = text
        characters = Array(text)
    }

    mutating func tokens() throws(SearchQueryError) -> [SearchToken] {
        var tokens: [SearchToken] = []
        while let token = try next() { tokens.append(token) }
        return tokens
    }

    private mutating func next() throws(SearchQueryError) -> SearchToken? {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        guard index < characters.count else { return nil }
        let start = index
        switch characters[index] {
        case "(":
            index += 1
            return SearchToken(kind: .open, position: start, length: 1)
        case ")":
            index += 1
            return SearchToken(kind: .close, position: start, length: 1)
        case "\"":
            let phrase = try quoted()
            return SearchToken(kind: .phrase(phrase), position: start, length: index - start)
        case "-" where index + 1 < characters.count && Self.canFollowMinus(characters[index + 1]):
            index += 1
            return SearchToken(kind: .minus, position: start, length: 1)
        default:
            return try chunk(from: start)
        }
    }

    /// A bare run of characters: a keyword, a word, or `name:value`.
    private mutating func chunk(from start: Int) throws(SearchQueryError) -> SearchToken {
        while index < characters.count, !Self.endsChunk(characters[index]) { index += 1 }
        let chunk = String(characters[start..<index])
        switch chunk {
        case "OR": return SearchToken(kind: .or, position: start, length: 2)
        case "AND": return SearchToken(kind: .and, position: start, length: 3)
        case "NOT": return SearchToken(kind: .not, position: start, length: 3)
        default: break
        }
        guard let colon = chunk.firstIndex(of: ":") else {
            return SearchToken(kind: .word(chunk), position: start, length: index - start)
        }
        let name = String(chunk[..<colon])
        let value = String(chunk[chunk.index(after: colon)...])
        let isName = !name.isEmpty && name.allSatisfy { $0.isLetter || $0 == "_" }
        // Not an operator: text with a colon in it (10:30, a URL).
        if !isName || value.hasPrefix("//") {
            return SearchToken(kind: .word(chunk), position: start, length: index - start)
        }
        let lowered = name.lowercased()
        guard Self.operators.contains(lowered) else {
            throw error(at: start, length: name.count + 1,
                        "unknown operator \"\(name):\"; the operators are \(Self.operatorList); put text in quotes (\"\(chunk)\") to search for it as it is")
        }
        if value.isEmpty {
            if index < characters.count, characters[index] == "\"" {
                let phrase = try quoted()
                return SearchToken(kind: .field(name: lowered, value: phrase), position: start, length: index - start)
            }
            throw error(at: start, length: name.count + 1,
                        "\"\(name):\" needs a value right after the colon, with no space (\(Self.example(lowered)))")
        }
        return SearchToken(kind: .field(name: lowered, value: value), position: start, length: index - start)
    }

    /// A "quoted phrase", the index at its opening quote; leaves the index after the closing one.
    private mutating func quoted() throws(SearchQueryError) -> String {
        let open = index
        index += 1
        guard let close = characters[index...].firstIndex(of: "\"") else {
            throw error(at: open, length: characters.count - open, "this quote is never closed; add a closing \" after the phrase")
        }
        let phrase = String(characters[index..<close])
        index = close + 1
        guard phrase.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw error(at: open, length: index - open, "the quotes hold no word to search for; put words between them")
        }
        return phrase
    }

    /// `-word`, `-"phrase"`, `-(…)`, `-from:x`; not `- word` or `--`.
    private static func canFollowMinus(_ character: Character) -> Bool {
        !character.isWhitespace && character != ")" && character != "-"
    }

    private static func endsChunk(_ character: Character) -> Bool {
        character.isWhitespace || character == "(" || character == ")" || character == "\""
    }

    private func error(at position: Int, length: Int, _ reason: String) -> SearchQueryError {
        SearchQueryError(query: text, position: position, length: length, reason: reason)
    }

    static let operatorList = "from: to: cc: subject: filename: has: is: in: account: category: after: before: older_than: newer_than:"

    static func example(_ name: String) -> String {
        switch name {
        case "from", "to", "cc": "\(name):alice@example.org, \(name):example.org or \(name):\"Alice Smith\""
        case "subject": "subject:invoice or subject:\"quarterly report\""
        case "filename": "filename:pdf or filename:report.pdf"
        case "has": "has:attachment"
        case "is": "is:unread, is:read or is:starred"
        case "in": "in:inbox, in:sent or in:\"Project X\""
        case "account": "account:work"
        case "category": "category:promotions"
        case "after", "before": "\(name):2024-01-31 or \(name):2024/01/31"
        default: "\(name):7d, \(name):2m or \(name):1y"
        }
    }
}
