import Foundation

/// Marks a query's words and phrases in a message's text and cuts the piece around the first
/// match, for a result row. Words are compared as the index compares them (letters and digits,
/// case and accents folded); words of scripts without spaces (CJK) as substrings. It reads the
/// text only up to the first match and the window after it.
public struct SearchHighlighter: Sendable {
    struct Term: Sendable {
        var tokens: [String]
        var prefix: Bool
    }

    private var terms: [Term] = []
    private var unspaced: [[Unicode.Scalar]] = []
    private var longest = 1

    /// The positive words and phrases of `expression` (negated ones are not in matching text).
    public init(_ expression: SearchExpression) {
        for (term, negated) in expression.terms() where !negated {
            switch term {
            case .word(let text, let prefix): add(text, prefix: prefix)
            case .phrase(let text): add(text, prefix: false)
            default: break
            }
        }
    }

    private mutating func add(_ text: String, prefix: Bool) {
        if SearchText.hasUnspaced(text) {
            unspaced.append(Array(text.unicodeScalars.filter(SearchText.isUnspaced)))
            return
        }
        let tokens = Self.tokens(of: Array(text.unicodeScalars)).map(\.folded)
        guard !tokens.isEmpty else { return }
        terms.append(Term(tokens: tokens, prefix: prefix))
        longest = max(longest, tokens.count)
    }

    /// Nothing to mark: the query has no words.
    public var isEmpty: Bool { terms.isEmpty && unspaced.isEmpty }

    /// The text around the first match (about `before` characters before it, `length` in
    /// all), every match in it marked; nil when nothing matches.
    public func snippet(_ text: String, before: Int = 40, length: Int = 200) -> SearchSnippet? {
        guard !isEmpty else { return nil }
        let scalars = Array(text.unicodeScalars)
        var matches = Matcher(highlighter: self, scalars: scalars)
        guard let first = matches.next() else { return nil }
        var start = max(0, first.lowerBound - before)
        // Start at a word: skip the rest of one cut in the middle.
        while start > 0, start < first.lowerBound, Self.isWordScalar(scalars[start - 1]) { start += 1 }
        let end = min(scalars.count, max(start + length, first.upperBound))
        var marked = String.UnicodeScalarView()
        if start > 0 { marked.append(contentsOf: "…".unicodeScalars) }
        var position = start
        var match: Range<Int>? = first
        while let current = match, current.upperBound <= end {
            marked.append(contentsOf: scalars[position..<current.lowerBound])
            marked.append(contentsOf: String(SearchSnippet.openMark).unicodeScalars)
            marked.append(contentsOf: scalars[current])
            marked.append(contentsOf: String(SearchSnippet.closeMark).unicodeScalars)
            position = current.upperBound
            match = matches.next()
        }
        marked.append(contentsOf: scalars[position..<max(position, end)])
        if end < scalars.count { marked.append(contentsOf: "…".unicodeScalars) }
        return SearchSnippet(marked: String(marked))
    }

    /// The matches in a text, in order, found as it is read.
    struct Matcher {
        let highlighter: SearchHighlighter
        let scalars: [Unicode.Scalar]
        var index = 0
        var recent: [(range: Range<Int>, folded: String)] = []
        var pending: [Range<Int>] = []

        init(highlighter: SearchHighlighter, scalars: [Unicode.Scalar]) {
            self.highlighter = highlighter
            self.scalars = scalars
        }

        mutating func next() -> Range<Int>? {
            while pending.isEmpty, index < scalars.count {
                step()
            }
            return pending.isEmpty ? nil : pending.removeFirst()
        }

        /// Reads one token (or one unspaced character) and records the matches ending there.
        private mutating func step() {
            let scalar = scalars[index]
            if SearchText.isUnspaced(scalar) {
                if let length = highlighter.unspaced.filter({ startsWith($0, at: index) }).map(\.count).max() {
                    pending.append(index..<index + length)
                    index += length
                } else {
                    index += 1
                }
                recent.removeAll()
                return
            }
            guard SearchHighlighter.isWordScalar(scalar) else {
                index += 1
                return
            }
            var end = index
            while end < scalars.count, SearchHighlighter.isWordScalar(scalars[end]), !SearchText.isUnspaced(scalars[end]) { end += 1 }
            recent.append((index..<end, SearchHighlighter.fold(scalars[index..<end])))
            if recent.count > highlighter.longest { recent.removeFirst() }
            index = end
            for term in highlighter.terms where term.tokens.count <= recent.count {
                let tail = recent.suffix(term.tokens.count)
                let matched = zip(tail.indices, term.tokens).allSatisfy { position, token in
                    let word = recent[position].folded
                    return position == recent.count - 1 && term.prefix ? word.hasPrefix(token) : word == token
                }
                if matched, let first = tail.first {
                    pending.append(first.range.lowerBound..<end)
                    recent.removeAll()
                    return
                }
            }
        }

        private func startsWith(_ word: [Unicode.Scalar], at position: Int) -> Bool {
            position + word.count <= scalars.count && scalars[position..<position + word.count].elementsEqual(word)
        }
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Lower case without accents; ASCII without Foundation.
    static func fold(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        if scalars.allSatisfy(\.isASCII) {
            var view = String.UnicodeScalarView()
            for scalar in scalars {
                view.append((0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 32)) : scalar)
            }
            return String(view)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return SearchText.fold(String(view))
    }

    static func tokens(of scalars: [Unicode.Scalar]) -> [(range: Range<Int>, folded: String)] {
        var tokens: [(range: Range<Int>, folded: String)] = []
        var index = 0
        while index < scalars.count {
            guard isWordScalar(scalars[index]) else {
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, isWordScalar(scalars[end]) { end += 1 }
            tokens.append((index..<end, fold(scalars[index..<end])))
            index = end
        }
        return tokens
    }
}
