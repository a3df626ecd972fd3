/// Looks for words and phrases in lowercased text, whole words only ("sale" is not in
/// "wholesale"), and for the discounts ("20% off", "$10 off") that make an offer.
enum CategoryText {
    /// True when `phrase` occurs in `text` with no letter or digit joined to either end.
    static func contains(_ text: String, _ phrase: String) -> Bool {
        guard !phrase.isEmpty else { return false }
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: phrase, range: searchRange) {
            let startsWord = !(phrase.first?.isLetterOrDigit ?? false)
                || found.lowerBound == text.startIndex
                || !text[text.index(before: found.lowerBound)].isLetterOrDigit
            let endsWord = !(phrase.last?.isLetterOrDigit ?? false)
                || found.upperBound == text.endIndex
                || !text[found.upperBound].isLetterOrDigit
            if startsWord && endsWord { return true }
            searchRange = text.index(after: found.lowerBound)..<text.endIndex
        }
        return false
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
