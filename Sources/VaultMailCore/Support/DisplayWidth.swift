/// How many terminal columns text takes, as `wcwidth` counts them: East Asian wide and
/// fullwidth characters and emoji take two, combining marks, zero-width joiners and
/// variation selectors none, everything else one. Rows of 80 columns are cut by it.
public enum DisplayWidth {
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.count > 1, character.unicodeScalars.contains(where: { $0.value == 0xFE0F || $0.properties.isEmojiPresentation }) {
            return 2
        }
        return of(first)
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 || value == 0x200B || value == 0x200D || (0xFE00...0xFE0F).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// `text` cut to at most `width` columns, ending with "…" when something was cut.
    public static func cut(_ text: String, _ width: Int) -> String {
        guard of(text) > width else { return text }
        var out = ""
        var used = 0
        for character in text {
            let next = of(character)
            if used + next > width - 1 { break }
            out.append(character)
            used += next
        }
        return out + "…"
    }

    /// `text` padded with spaces to `width` columns (before it with `leading`).
    public static func pad(_ text: String, _ width: Int, leading: Bool = false) -> String {
        let spaces = String(repeating: " ", count: max(0, width - of(text)))
        return leading ? spaces + text : text + spaces
    }
}
