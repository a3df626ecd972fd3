/// Looks for words and phrases in lowercased text, whole words only ("sale" is not in
/// "wholesale"), and for the discounts ("20% off", "$10 off") that make an offer.
enum CategoryText {
    /// True when `phrase` occurs in `text` with no letter or digit joined to either end.
    /// The search runs over UTF-8 bytes (the categorizer's hot path: Foundation's
    /// `range(of:)` bridged every call); a match is taken only where it starts and ends on
    /// character boundaries, so "sale" is not found in "sale\u{301}".
    static func contains(_ text: String, _ phrase: String) -> Bool {
        guard let first = phrase.first, let last = phrase.last else { return false }
        let needle = Array(phrase.utf8)
        let bytes = text.utf8
        guard bytes.count >= needle.count else { return false }
        var start = bytes.startIndex
        while let found = bytes[start...].firstIndex(of: needle[0]) {
            let end = bytes.index(found, offsetBy: needle.count, limitedBy: bytes.endIndex)
            guard let end else { return false }
            if bytes[found..<end].elementsEqual(needle), isWordAt(text, from: found, to: end, first: first, last: last) {
                return true
            }
            start = bytes.index(after: found)
        }
        return false
    }

    /// True when `part` occurs anywhere in `text`, compared byte for byte (domains, header
    /// values: Foundation's `contains` bridges to `NSString` at every call).
    /// (Not `firstRange(of:)` either: its generic searcher was slower still.)
    static func containsBytes(_ text: String, _ part: String) -> Bool {
        let needle = Array(part.utf8)
        func search(_ hay: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = needle.first else { return true }
            guard hay.count >= needle.count else { return false }
            var start = 0
            while start <= hay.count - needle.count {
                if hay[start] == first {
                    var matched = 1
                    while matched < needle.count, hay[start + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
                start += 1
            }
            return false
        }
        return text.utf8.withContiguousStorageIfAvailable(search) ?? Array(text.utf8).withUnsafeBufferPointer(search)
    }

    /// Whether `text[lower..<upper]` (UTF-8 positions) is whole characters with no letter or
    /// digit joined to a lettered end.
    private static func isWordAt(_ text: String, from lower: String.Index, to upper: String.Index, first: Character, last: Character) -> Bool {
        guard let lower = String.Index(lower, within: text), let upper = String.Index(upper, within: text) else { return false }
        let startsWord = !first.isLetterOrDigit || lower == text.startIndex || !text[text.index(before: lower)].isLetterOrDigit
        let endsWord = !last.isLetterOrDigit || upper == text.endIndex || !text[upper].isLetterOrDigit
        return startsWord && endsWord
    }

    /// The first of `phrases` found in `text`.
    static func first(of phrases: [String], in text: String) -> String? {
        phrases.first { contains(text, $0) }
    }

    /// A discount written as a percentage or an amount off: "50% off", "up to 70 % off",
    /// "$10 off", "€5 off"; returns it as written.
    static func discount(in text: String) -> String? {
        let characters = Array(text)
        for index in characters.indices where characters[index] == "%" {
            var digitsEnd = index
            if digitsEnd > 0, characters[digitsEnd - 1] == " " { digitsEnd -= 1 }
            var start = digitsEnd
            while start > 0, characters[start - 1].isNumber { start -= 1 }
            guard start < digitsEnd else { continue }
            var after = index + 1
            while after < characters.count, characters[after] == " " { after += 1 }
            if characters[after...].starts(with: "off") {
                return String(characters[start..<(after + 3)])
            }
        }
        for index in characters.indices where "$£€".contains(characters[index]) {
            var end = index + 1
            while end < characters.count, characters[end].isNumber || characters[end] == "." || characters[end] == "," { end += 1 }
            guard end > index + 1 else { continue }
            var after = end
            while after < characters.count, characters[after] == " " { after += 1 }
            if characters[after...].starts(with: "off") {
                return String(characters[index..<(after + 3)])
            }
        }
        return nil
    }
}

extension Character {
    var isLetterOrDigit: Bool { isLetter || isNumber }
}
