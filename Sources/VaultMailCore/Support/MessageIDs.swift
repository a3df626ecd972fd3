/// Reads msg-ids (RFC 5322 §3.6.4) out of Message-ID, In-Reply-To and References values.
///
/// Lenient on purpose, because threading depends on it and real headers are messy: text
/// between ids ("(Lars's message of …)", quoted phrases, commas) is skipped, whitespace inside
/// brackets is dropped, and a value with no brackets at all is read as space-separated ids
/// when a word contains "@". Results keep their angle brackets: `<abc@example.com>`.
public enum MessageIDs {
    /// Every msg-id in `value`, in order, duplicates kept.
    public static func parseList(_ value: String) -> [String] {
        // Headers are ASCII almost always: read bytes, which is many times faster than
        // characters (References of a long thread are read on every message of it).
        var ascii = true
        for byte in value.utf8 where byte >= 0x80 {
            ascii = false
            break
        }
        return ascii ? parseListASCII(value) : parseListCharacters(value)
    }

    /// `parseList` over ASCII bytes; the same result as `parseListCharacters` for ASCII input.
    static func parseListASCII(_ value: String) -> [String] {
        let bytes = Array(value.utf8)
        var ids: [String] = []
        var sawBracket = false
        var commentDepth = 0
        var inQuote = false
        var current: [UInt8]? = nil
        var previousWasEscape = false
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
        }
        @inline(__always) func finish(_ id: [UInt8]) {
            if !id.isEmpty { ids.append("<" + String(decoding: id, as: UTF8.self) + ">") }
        }
        for byte in bytes {
            if current != nil {
                if byte == UInt8(ascii: ">") {
                    finish(current!)
                    current = nil
                } else if byte == UInt8(ascii: "<") {
                    finish(current!)
                    current = []
                } else if !isSpace(byte) {
                    current!.append(byte)
                }
                continue
            }
            if previousWasEscape {
                previousWasEscape = false
                continue
            }
            switch byte {
            case UInt8(ascii: "\\") where inQuote || commentDepth > 0:
                previousWasEscape = true
            case UInt8(ascii: "\"") where commentDepth == 0:
                inQuote.toggle()
            case UInt8(ascii: "(") where !inQuote:
                commentDepth += 1
            case UInt8(ascii: ")") where !inQuote && commentDepth > 0:
                commentDepth -= 1
            case UInt8(ascii: "<") where !inQuote && commentDepth == 0:
                sawBracket = true
                current = []
            default:
                break
            }
        }
        if let id = current { finish(id) }
        if !sawBracket {
            for word in bytes.split(whereSeparator: { isSpace($0) || $0 == UInt8(ascii: ",") })
            where word.contains(UInt8(ascii: "@")) && word.first != UInt8(ascii: "(") {
                ids.append("<" + String(decoding: word, as: UTF8.self) + ">")
            }
        }
        return ids
    }

    /// `parseList` character by character (any text).
    static func parseListCharacters(_ value: String) -> [String] {
        var ids: [String] = []
        var sawBracket = false
        var commentDepth = 0
        var inQuote = false
        var current: [Character]? = nil
        var previousWasEscape = false
        for character in value {
            if var id = current {
                if character == ">" {
                    if !id.isEmpty { ids.append("<" + String(id) + ">") }
                    current = nil
                } else if character == "<" {
                    // A new id starts before this one closed: keep the text read so far.
                    if !id.isEmpty { ids.append("<" + String(id) + ">") }
                    current = []
                } else if !character.isWhitespace {
                    id.append(character)
                    current = id
                }
                continue
            }
            if previousWasEscape {
                previousWasEscape = false
                continue
            }
            switch character {
            case "\\" where inQuote || commentDepth > 0:
                previousWasEscape = true
            case "\"" where commentDepth == 0:
                inQuote.toggle()
            case "(" where !inQuote:
                commentDepth += 1
            case ")" where !inQuote && commentDepth > 0:
                commentDepth -= 1
            case "<" where !inQuote && commentDepth == 0:
                sawBracket = true
                current = []
            default:
                break
            }
        }
        if let id = current, !id.isEmpty { ids.append("<" + String(id) + ">") }
        if !sawBracket {
            for word in value.split(whereSeparator: { $0.isWhitespace || $0 == "," })
            where word.contains("@") && !word.hasPrefix("(") {
                ids.append("<" + word + ">")
            }
        }
        return ids
    }

    /// The first msg-id in `value`, or nil.
    public static func parseFirst(_ value: String) -> String? {
        parseList(value).first
    }

    /// `id` without its angle brackets (`abc@example.com`).
    public static func bare(_ id: String) -> String {
        var text = Substring(id)
        if text.hasPrefix("<") { text = text.dropFirst() }
        if text.hasSuffix(">") { text = text.dropLast() }
        return String(text)
    }
}
