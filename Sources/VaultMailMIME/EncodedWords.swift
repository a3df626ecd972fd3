import Foundation

/// RFC 2047 encoded-words (`=?UTF-8?B?…?=`), decoded by us: GMime's address parser keeps only
/// the first of two adjacent words in a display name ("Анна Каренина" became "Анна").
///
/// - Words separated only by whitespace join without it (RFC 2047 §6.2); consecutive words of
///   one charset are joined as bytes first, so a character split across two words survives.
/// - B (lenient base64: missing padding is added) and Q (`_` is a space, `=XX` a byte).
/// - A word that cannot be read (bad base64, bytes that are not text in its charset, an
///   unknown charset iconv cannot convert) stays as it was written: text is never lost.
enum EncodedWords {
    private struct Word {
        var charset: String
        var bytes: [UInt8]
        var written: Substring
    }

    private enum Piece {
        case text(Substring)
        case word(Word)
    }

    /// Unstructured text (a Subject) with its encoded-words decoded.
    static func decode(_ text: String, decoder: TextDecoder) -> String {
        render(pieces(text), decoder: decoder) { $0 }
    }

    /// An address list with each run of encoded-words made a quoted string of its text, so that
    /// the address parser reads whole UTF-8 names (quotes and backslashes escaped).
    static func quoted(_ header: String, decoder: TextDecoder) -> String {
        render(pieces(header), decoder: decoder) { decoded in
            "\"" + decoded.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
    }

    static func contains(_ text: String) -> Bool { text.contains("=?") }

    private static func pieces(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = text[...]
        while let match = rest.firstMatch(of: /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/) {
            if match.range.lowerBound > rest.startIndex { pieces.append(.text(rest[rest.startIndex..<match.range.lowerBound])) }
            let charset = match.1.split(separator: "*").first.map { String($0).lowercased() } ?? ""
            if let bytes = match.2.lowercased() == "b" ? base64(match.3) : quotedPrintable(match.3) {
                pieces.append(.word(Word(charset: charset, bytes: bytes, written: rest[match.range])))
            } else {
                pieces.append(.text(rest[match.range]))
            }
            rest = rest[match.range.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(rest)) }
        // Whitespace between two words is not text (RFC 2047 §6.2).
        return pieces.enumerated().filter { index, piece in
            guard case .text(let text) = piece, text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }),
                  index > 0, index < pieces.count - 1, case .word = pieces[index - 1], case .word = pieces[index + 1] else { return true }
            return false
        }.map(\.element)
    }

    /// Runs of words of one charset decoded together; `wrap` shapes each decoded run.
    private static func render(_ pieces: [Piece], decoder: TextDecoder, wrap: (String) -> String) -> String {
        var out = ""
        var run: [Word] = []
        func flush() {
            guard !run.isEmpty else { return }
            var decoded = ""
            var group: [Word] = []
            func decodeGroup() {
                guard let first = group.first else { return }
                let bytes = group.flatMap(\.bytes)
                let (text, problem) = decoder.decode(bytes, charset: first.charset)
                decoded += problem == nil ? text : group.map { String($0.written) }.joined()
                group = []
            }
            for word in run {
                if let first = group.first, first.charset != word.charset { decodeGroup() }
                group.append(word)
            }
            decodeGroup()
            out += wrap(decoded)
            run = []
        }
        for piece in pieces {
            switch piece {
            case .word(let word): run.append(word)
            case .text(let text):
                flush()
                out += text
            }
        }
        flush()
        return out
    }

    private static func base64(_ text: Substring) -> [UInt8]? {
        var padded = String(text)
        while padded.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map { Array($0) }
    }

    private static func quotedPrintable(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            switch byte {
            case UInt8(ascii: "_"): bytes.append(0x20)
            case UInt8(ascii: "="):
                guard iterator.count >= 2, let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            default: bytes.append(byte)
            }
        }
        return bytes
    }
}
