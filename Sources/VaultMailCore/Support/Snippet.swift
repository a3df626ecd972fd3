/// The one-line preview a thread row and a notification show.
public enum Snippet {
    /// The longest snippet, in characters.
    public static let maximumLength = 200

    /// A preview of the body: the plain text when it has any words, else the text of the HTML.
    /// Quoted lines ("> …") are left out unless nothing else is left; whitespace runs become
    /// one space; at most `maximumLength` characters, cut at a word boundary when one is near.
    /// Nil when the body has no text at all.
    public static func make(plain: String?, html: String?) -> String? {
        if let plain, let snippet = fromText(plain) { return snippet }
        if let html, let snippet = fromText(HTMLText.plainText(html)) { return snippet }
        return nil
    }

    /// A preview of plain text (see `make(plain:html:)`). Reads lines only until the preview
    /// is full: a long body (a patch, a log) costs no more than its first lines.
    public static func fromText(_ text: String) -> String? {
        var preview = Collapser()
        var quoted = Collapser()
        var start = text.startIndex
        while start < text.endIndex && !preview.isFull {
            let end = text[start...].firstIndex(where: { $0.isNewline }) ?? text.endIndex
            let line = text[start..<end]
            start = end < text.endIndex ? text.index(after: end) : end
            if line.isEmpty { continue }
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix(">") {
                // Quoted lines only matter while nothing else has been read.
                if preview.isEmpty && !quoted.isFull { quoted.add(line) }
            } else {
                preview.add(line)
            }
        }
        return preview.result ?? quoted.result
    }

    /// Joins lines into one, whitespace runs collapsed, up to `maximumLength` characters.
    private struct Collapser {
        private var out = ""
        private var pendingSpace = false
        private var length = 0
        private(set) var isFull = false

        var isEmpty: Bool { out.isEmpty }

        mutating func add(_ line: Substring) {
            guard !isFull else { return }
            pendingSpace = pendingSpace || !out.isEmpty
            for character in line {
                if character.isWhitespace {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if Snippet.isInvisible(character) { continue }
                if pendingSpace {
                    if length + 1 >= maximumLength {
                        isFull = true
                        return
                    }
                    out.append(" ")
                    length += 1
                    pendingSpace = false
                }
                guard length < maximumLength else {
                    isFull = true
                    return
                }
                out.append(character)
                length += 1
            }
        }

        var result: String? {
            guard !out.isEmpty else { return nil }
            if isFull, let space = out.lastIndex(of: " "), out.distance(from: space, to: out.endIndex) < 40 {
                return String(out[..<space])
            }
            return out
        }
    }

    /// Characters that take no room and would only confuse a preview (zero-width joiners,
    /// byte-order marks, soft hyphens).
    fileprivate static func isInvisible(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return false }
        switch scalar.value {
        case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x034F: return true
        default: return scalar.properties.generalCategory == .control
        }
    }
}
