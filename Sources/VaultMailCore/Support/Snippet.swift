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

    /// A preview of plain text (see `make(plain:html:)`).
    public static func fromText(_ text: String) -> String? {
        var lines: [Substring] = []
        var quoted: [Substring] = []
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0.isNewline }) {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix(">") { quoted.append(line) } else { lines.append(line) }
        }
        if let snippet = collapse(lines) { return snippet }
        return collapse(quoted)
    }

    private static func collapse(_ lines: [Substring]) -> String? {
        var out = ""
        var pendingSpace = false
        var length = 0
        var truncated = false
        outer: for line in lines {
            pendingSpace = pendingSpace || !out.isEmpty
            for character in line {
                if character.isWhitespace {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if isInvisible(character) { continue }
                if pendingSpace {
                    if length + 1 >= maximumLength {
                        truncated = true
                        break outer
                    }
                    out.append(" ")
                    length += 1
                    pendingSpace = false
                }
                guard length < maximumLength else {
                    truncated = true
                    break outer
                }
                out.append(character)
                length += 1
            }
        }
        guard !out.isEmpty else { return nil }
        if truncated, let space = out.lastIndex(of: " "),
           out.distance(from: space, to: out.endIndex) < 40 {
            out = String(out[..<space])
        }
        return out
    }

    /// Characters that take no room and would only confuse a preview (zero-width joiners,
    /// byte-order marks, soft hyphens).
    private static func isInvisible(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return false }
        switch scalar.value {
        case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x034F: return true
        default: return scalar.properties.generalCategory == .control
        }
    }
}
