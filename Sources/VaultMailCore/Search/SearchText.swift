import Foundation

/// How text is prepared for the search index and for queries, the same on both sides:
/// folding for the substring (trigram) index, and character bigrams for scripts written
/// without spaces (Chinese, Japanese, Korean, Thai, …), which a word tokenizer cannot split.
public enum SearchText {
    /// Lower case without diacritics: "José Müller" → "jose muller".
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// A folded copy of text whose accents the index's tokenizer keeps (it removes only Latin
    /// ones): Greek tonos and dialytika, Cyrillic ё. Nil for other text, which needs none.
    public static func extraFolding(_ text: String?) -> String? {
        guard let text, text.unicodeScalars.contains(where: needsExtraFolding) else { return nil }
        return fold(text)
    }

    private static func needsExtraFolding(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0370...0x03FF, 0x1F00...0x1FFF, 0x0401, 0x0451: true
        default: false
        }
    }

    /// The body text to index: the plain part, else the text of the HTML part.
    public static func body(plain: String?, html: String?) -> String? {
        if let plain, !plain.isEmpty { return plain }
        if let html, !html.isEmpty { return HTMLText.plainText(html) }
        return nil
    }

    /// Whether the scalar belongs to a script written without spaces between words.
    public static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF, // Thai, Lao
             0x1000...0x109F, // Myanmar
             0x1100...0x11FF, // Hangul Jamo
             0x1780...0x17FF, // Khmer
             0x3040...0x30FF, // Hiragana, Katakana
             0x3130...0x318F, // Hangul compatibility Jamo
             0x31F0...0x31FF, // Katakana phonetic extensions
             0x3400...0x4DBF, // CJK extension A
             0x4E00...0x9FFF, // CJK unified ideographs
             0xAC00...0xD7AF, // Hangul syllables
             0xF900...0xFAFF, // CJK compatibility ideographs
             0xFF66...0xFF9F, // half-width Katakana
             0x20000...0x2FA1F: // CJK extensions B–F, compatibility supplement
            true
        default:
            false
        }
    }

    /// Whether the text has any character of such a script.
    public static func hasUnspaced(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isUnspaced)
    }

    /// The overlapping character pairs of each run of such characters, with the run's last
    /// character alone too, separated by spaces: "東京都" → "東京 京都 都". A word of the
    /// run is then a phrase of consecutive pairs, and one character a prefix. Nil when the
    /// text has none.
    public static func grams(_ text: String?) -> String? {
        guard let text else { return nil }
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        func endRun() {
            if let last = previous {
                if !out.isEmpty { out.append(" ") }
                out.append(last)
            }
            previous = nil
        }
        for scalar in text.unicodeScalars {
            guard isUnspaced(scalar) else {
                endRun()
                continue
            }
            if let last = previous {
                if !out.isEmpty { out.append(" ") }
                out.append(last)
                out.append(scalar)
            }
            previous = scalar
        }
        endRun()
        return out.isEmpty ? nil : String(out)
    }

    /// The query form of `text` for the gram index: its unspaced characters as consecutive
    /// pairs ("東京都" → "東京 京都"), or the one character; nil when it has none.
    public static func queryGrams(_ text: String) -> String? {
        let scalars = text.unicodeScalars.filter(isUnspaced)
        guard let first = scalars.first else { return nil }
        guard scalars.count > 1 else { return String(first) }
        var pairs: [String] = []
        for index in scalars.indices.dropLast() {
            let next = scalars.index(after: index)
            pairs.append(String(scalars[index]) + String(scalars[next]))
        }
        return pairs.joined(separator: " ")
    }
}
