/// Byte-level repairs of a message's top-level header block before GMime reads it, for
/// breakage common enough in real mail that readers are expected to cope.
enum HeaderRepair {
    /// The message from its first header line: lines before it that are not headers are
    /// dropped, as Python's `email` and Dovecot read them — lines of spaces or tabs, a first
    /// line that is a continuation (it folds onto nothing), and empty lines when a header field
    /// follows. Without this the whole message became its body: no subject, no sender.
    static func skippingLeadingJunk(_ message: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = message.startIndex
        for _ in 0..<64 {
            guard start < message.endIndex, let newline = message[start...].firstIndex(of: 0x0A) else { break }
            let line = message[start..<newline]
            let blank = line.allSatisfy { $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }
            let folded = line.first == 0x20 || line.first == 0x09
            if (blank && !line.isEmpty && line != [0x0D]) || folded || (blank && headerFieldFollows(message[(newline + 1)...])) {
                start = newline + 1
            } else {
                break
            }
        }
        return message[start...]
    }

    /// True when the first line of `text` that is not empty opens with `Name:` (printable
    /// ASCII without spaces, then a colon).
    private static func headerFieldFollows(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex
        while index < text.endIndex, text[index] == 0x0D || text[index] == 0x0A { index += 1 }
        let start = index
        while index < text.endIndex, text[index] > 0x20, text[index] < 0x7F, text[index] != UInt8(ascii: ":") {
            index += 1
        }
        return index > start && index < text.endIndex && text[index] == UInt8(ascii: ":")
    }

    /// Escapes raw 8-bit bytes inside Q-encoded words (`=?iso-8859-1?Q?J\xFCrgen?=` →
    /// `=?iso-8859-1?Q?J=FCrgen?=`), which old Outlook versions wrote. Left alone, GMime reads
    /// the raw byte through the undeclared-8-bit fallback (as UTF-8 "ü") and then again through
    /// the word's charset, giving "Ã¼"; escaped, the byte is read once, in the declared charset.
    /// Only the header block (up to the first empty line) is touched; a message without such
    /// words is returned as it is.
    static func escapingEightBitInEncodedWords(_ message: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let end = headerBlockEnd(message)
        guard message[message.startIndex..<end].contains(where: { $0 >= 0x80 }) else { return message }
        var out: [UInt8] = []
        var changed = false
        out.reserveCapacity(message.count + 64)
        var index = message.startIndex
        while index < end {
            if message[index] == UInt8(ascii: "="), index + 1 < end, message[index + 1] == UInt8(ascii: "?"),
               let word = qEncodedWord(message, from: index, limit: end) {
                // Copy "=?charset?Q?" as is, then the payload with 8-bit bytes escaped.
                out.append(contentsOf: message[index..<word.payloadStart])
                for byte in message[word.payloadStart..<word.payloadEnd] {
                    if byte >= 0x80 {
                        out.append(UInt8(ascii: "="))
                        out.append(hexDigit(byte >> 4))
                        out.append(hexDigit(byte & 0x0F))
                        changed = true
                    } else {
                        out.append(byte)
                    }
                }
                index = word.payloadEnd
                continue
            }
            out.append(message[index])
            index += 1
        }
        guard changed else { return message }
        out.append(contentsOf: message[end...])
        return out[...]
    }

    /// Where the header block ends: the index of the empty line's first byte, or the end.
    private static func headerBlockEnd(_ message: ArraySlice<UInt8>) -> Int {
        var index = message.startIndex
        var lineStart = true
        while index < message.endIndex {
            let byte = message[index]
            if lineStart, byte == 0x0A { return index }
            if lineStart, byte == 0x0D, index + 1 < message.endIndex, message[index + 1] == 0x0A { return index }
            lineStart = byte == 0x0A
            index += 1
        }
        return message.endIndex
    }

    /// The payload bounds of a Q-encoded word starting at `start` ("=?"), or nil when what
    /// starts there is not one (B-encoded, unterminated, or crossing a line break).
    private static func qEncodedWord(_ bytes: ArraySlice<UInt8>, from start: Int, limit: Int) -> (payloadStart: Int, payloadEnd: Int)? {
        var index = start + 2
        // charset (and optional *language), up to 64 bytes
        let charsetStart = index
        while index < limit, bytes[index] != UInt8(ascii: "?"), index - charsetStart < 64 {
            let byte = bytes[index]
            if byte <= 0x20 || byte >= 0x7F { return nil }
            index += 1
        }
        guard index > charsetStart, index + 2 < limit, bytes[index] == UInt8(ascii: "?"),
              bytes[index + 1] | 0x20 == UInt8(ascii: "q"), bytes[index + 2] == UInt8(ascii: "?") else { return nil }
        let payloadStart = index + 3
        index = payloadStart
        while index + 1 < limit, index - payloadStart < 1024 {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D || byte == 0x20 || byte == 0x09 { return nil }
            if byte == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: "=") { return (payloadStart, index) }
            index += 1
        }
        return nil
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
