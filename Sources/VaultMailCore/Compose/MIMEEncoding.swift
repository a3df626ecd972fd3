import Foundation

/// The encodings a message builder needs: RFC 2047 encoded words, RFC 2231 parameters,
/// quoted-printable and base64 bodies, and header folding. Output lines end in CRLF.
public enum MIMEEncoding {
    static let crlf: [UInt8] = [0x0D, 0x0A]
    /// Folding aims for this line length (RFC 5322 §2.1.1 "SHOULD be no more than 78").
    static let preferredLineLength = 78

    // MARK: Headers

    /// `Name: value` folded at the spaces between `tokens` so lines stay within 78 characters
    /// where a token allows it; tokens are never split. Ends with CRLF.
    static func header(_ name: String, _ tokens: [String], separator: String = " ") -> String {
        var out = name + ":"
        var lineLength = out.count
        for (index, token) in tokens.enumerated() {
            let joiner = index == 0 ? " " : separator
            if index > 0, lineLength + joiner.count + token.count > preferredLineLength {
                // Fold: the separator's trailing space becomes the folding white space.
                let kept = joiner.hasSuffix(" ") ? String(joiner.dropLast()) : joiner
                out += kept + "\r\n " + token
                lineLength = 1 + token.count
            } else {
                out += joiner + token
                lineLength += joiner.count + token.count
            }
        }
        return out + "\r\n"
    }

    /// RFC 2047 "Q" encoded words for `text`, each at most 67 characters (so "Subject: " and
    /// a word fit in 78), split between Unicode scalars. Only letters, digits and `!*+-/` stay
    /// as they are (safe in a phrase too), a space becomes `_`. Decoders join adjacent encoded
    /// words without the space between them.
    ///
    /// Not "B": GMime 3.2 decodes adjacent base64 words of one charset as one stream, and a
    /// padded word ("…IA==") corrupts everything after it; Q words have no such state.
    static func encodedWords(_ text: String) -> [String] {
        let prefix = "=?UTF-8?Q?"
        let maxContent = 55
        var words: [String] = []
        var content = ""
        for scalar in text.unicodeScalars {
            var piece = ""
            if scalar == " " {
                piece = "_"
            } else if scalar.isASCII, let ascii = UInt8(exactly: scalar.value),
                      (0x30...0x39).contains(ascii) || (0x41...0x5A).contains(ascii) || (0x61...0x7A).contains(ascii)
                        || "!*+-/".utf8.contains(ascii) {
                piece = String(scalar)
            } else {
                for byte in String(scalar).utf8 { piece += "=" + hexByte(byte) }
            }
            if content.count + piece.count > maxContent, !content.isEmpty {
                words.append(prefix + content + "?=")
                content = ""
            }
            content += piece
        }
        if !content.isEmpty || words.isEmpty { words.append(prefix + content + "?=") }
        return words
    }

    /// True when unstructured text (a subject) can be written as it is: printable ASCII,
    /// single spaces between words, no leading or trailing space, nothing that looks like an
    /// encoded word, no word too long to fold.
    static func isPlainUnstructured(_ text: String) -> Bool {
        guard !text.isEmpty else { return true }
        guard text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return false }
        if text.hasPrefix(" ") || text.hasSuffix(" ") || text.contains("  ") || text.contains("=?") { return false }
        return text.split(separator: " ").allSatisfy { $0.count <= 900 }
    }

    /// The tokens of a display name: as it is when it is atoms and single spaces, a quoted
    /// string when it is other printable ASCII, else encoded words.
    static func phraseTokens(_ name: String) -> [String] {
        let printable = name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        if printable, !name.isEmpty, isPlainUnstructured(name),
           name.allSatisfy({ $0 == " " || isAtomText($0) }) {
            return name.split(separator: " ").map(String.init)
        }
        if printable, !name.contains("=?"), name.count <= 900 {
            var quoted = "\""
            for character in name {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            return [quoted + "\""]
        }
        return encodedWords(name)
    }

    /// RFC 5322 atext.
    static func isAtomText(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        if (0x41...0x5A).contains(ascii) || (0x61...0x7A).contains(ascii) || (0x30...0x39).contains(ascii) { return true }
        return "!#$%&'*+-/=?^_`{|}~".contains(character)
    }

    /// The tokens of an address list, commas attached, names before `<address>`.
    static func addressTokens(_ participants: [Participant]) -> [String] {
        var tokens: [String] = []
        for (index, participant) in participants.enumerated() {
            let comma = index < participants.count - 1 ? "," : ""
            if let name = participant.name, !name.trimmingWhitespace().isEmpty {
                tokens += phraseTokens(name)
                tokens.append("<\(participant.email)>" + comma)
            } else {
                tokens.append(participant.email + comma)
            }
        }
        return tokens
    }

    /// A parameter (`name="value"`) as tokens for a folded header: quoted when the value is
    /// short printable ASCII, else RFC 2231 `name*0*=utf-8''…` continuations of at most 60
    /// characters each. Every token but the last ends with ";".
    static func parameterTokens(_ name: String, _ value: String) -> [String] {
        let simple = value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
            && !value.contains("\"") && !value.contains("\\") && value.count <= 60
        if simple { return ["\(name)=\"\(value)\""] }
        var encoded: [String] = []
        var current = ""
        for byte in value.utf8 {
            let piece = isAttributeChar(byte) ? String(UnicodeScalar(byte)) : "%" + hexByte(byte)
            if current.count + piece.count > 60 {
                encoded.append(current)
                current = ""
            }
            current += piece
        }
        if !current.isEmpty || encoded.isEmpty { encoded.append(current) }
        if encoded.count == 1 { return ["\(name)*=utf-8''\(encoded[0])"] }
        return encoded.enumerated().map { index, chunk in
            let head = index == 0 ? "\(name)*0*=utf-8''" : "\(name)*\(index)*="
            return head + chunk + (index < encoded.count - 1 ? ";" : "")
        }
    }

    /// Two uppercase hex digits.
    static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    /// RFC 2231 attribute-char: printable ASCII but space, `*'%` and tspecials.
    private static func isAttributeChar(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        return !"*'%()<>@,;:\\\"/[]?=".utf8.contains(byte)
    }

    // MARK: Bodies

    /// `text` with every line break (LF, CR or CRLF) made CRLF, ending with CRLF.
    static func crlfLines(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        out.reserveCapacity(bytes.count + bytes.count / 40 + 2)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D {
                out += crlf
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else if byte == 0x0A {
                out += crlf
            } else {
                out.append(byte)
            }
            index += 1
        }
        if !out.isEmpty, out.suffix(2) != crlf[...] { out += crlf }
        if out.isEmpty { out = crlf }
        return out
    }

    /// The transfer encoding for CRLF text and the encoded bytes: `7bit` when it is ASCII with
    /// lines of at most 998 bytes, else quoted-printable or base64, whichever is shorter.
    static func encodeText(_ crlfText: [UInt8]) -> (encoding: String, body: [UInt8]) {
        var longest = 0
        var current = 0
        var isSevenBit = true
        var index = 0
        while index < crlfText.count {
            let byte = crlfText[index]
            if byte == 0x0D, index + 1 < crlfText.count, crlfText[index + 1] == 0x0A {
                longest = max(longest, current)
                current = 0
                index += 2
                continue
            }
            if byte >= 0x80 || byte == 0 || byte == 0x0D || byte == 0x0A { isSevenBit = false }
            current += 1
            index += 1
        }
        longest = max(longest, current)
        if isSevenBit && longest <= 998 { return ("7bit", crlfText) }
        let quoted = quotedPrintable(crlfText)
        let base64Size = (crlfText.count + 2) / 3 * 4 * 78 / 76
        if quoted.count <= base64Size { return ("quoted-printable", quoted) }
        return ("base64", base64(crlfText))
    }

    /// Quoted-printable (RFC 2045 §6.7) of CRLF text: CRLF stays a hard line break, lines are
    /// at most 76 characters with soft breaks, trailing spaces and tabs are encoded.
    static func quotedPrintable(_ crlfText: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(crlfText.count * 3 / 2)
        var lineLength = 0
        func emit(_ piece: [UInt8]) {
            if lineLength + piece.count > 75 {
                out += [UInt8(ascii: "=")] + crlf
                lineLength = 0
            }
            out += piece
            lineLength += piece.count
        }
        var index = 0
        while index < crlfText.count {
            let byte = crlfText[index]
            if byte == 0x0D, index + 1 < crlfText.count, crlfText[index + 1] == 0x0A {
                out += crlf
                lineLength = 0
                index += 2
                continue
            }
            let atLineEnd = index + 1 >= crlfText.count
                || (crlfText[index + 1] == 0x0D && index + 2 < crlfText.count && crlfText[index + 2] == 0x0A)
            // An "F" opening a line of "From " is encoded, so no mail store or signature check
            // ever sees the line changed to ">From " (RFC 3156 §3).
            let fromLine = byte == UInt8(ascii: "F") && lineLength == 0 && crlfText[index...].starts(with: Array("From ".utf8))
            let literal = (byte >= 0x21 && byte <= 0x7E && byte != UInt8(ascii: "=") && !fromLine)
                || ((byte == 0x20 || byte == 0x09) && !atLineEnd)
            emit(literal ? [byte] : [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            index += 1
        }
        return out
    }

    /// Whether 7bit CRLF text has something transport may change: white space ending a line,
    /// or a line starting "From " (RFC 3156 §3: signed content must be safe from both).
    static func mayChangeInTransit(_ crlfText: [UInt8]) -> Bool {
        var lineStart = true
        for (index, byte) in crlfText.enumerated() {
            if lineStart, crlfText[index...].starts(with: Array("From ".utf8)) { return true }
            lineStart = false
            if byte == 0x0D, index + 1 < crlfText.count, crlfText[index + 1] == 0x0A {
                if index > 0, crlfText[index - 1] == 0x20 || crlfText[index - 1] == 0x09 { return true }
            }
            if byte == 0x0A { lineStart = true }
        }
        if let last = crlfText.last, last == 0x20 || last == 0x09 { return true }
        return false
    }

    /// Base64 in lines of 76 characters, each ending in CRLF.
    static func base64(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        let encoded = Data(bytes).base64EncodedData(
            options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        return Array(encoded) + crlf
    }
}
