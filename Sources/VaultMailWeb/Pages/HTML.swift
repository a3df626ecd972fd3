/// Escaping for server-rendered HTML: every piece of mail text goes through `HTML.escape`
/// (text and double-quoted attribute values alike).
enum HTML {
    static func escape(_ text: String) -> String {
        var needsEscape = false
        for byte in text.utf8 where byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 {
            needsEscape = true
            break
        }
        guard needsEscape else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `name="value"` with the value escaped.
    static func attribute(_ name: String, _ value: String) -> String {
        "\(name)=\"\(escape(value))\""
    }
}
