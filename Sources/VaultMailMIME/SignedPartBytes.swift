/// The signed part of a PGP/MIME `multipart/signed` message cut from the message's own bytes
/// (RFC 3156 §5, RFC 2046 §5.1.1): what was signed is the first body part exactly as sent, so
/// it is taken from the bytes, not rebuilt from a parsed tree.
enum SignedPartBytes {
    /// The first body part of the top-level multipart in `raw` whose boundary is `boundary`:
    /// from after the line `--boundary` to before the line break that precedes the next
    /// boundary line, with every line end made CRLF. Nil when the boundary lines are not there.
    static func firstPart(of raw: [UInt8], boundary: String) -> [UInt8]? {
        let delimiter = Array(("--" + boundary).utf8)
        guard let bodyStart = bodyStart(of: raw) else { return nil }
        var lineStart = bodyStart
        var contentStart: Int?
        while lineStart < raw.count {
            let lineEnd = raw[lineStart...].firstIndex(of: 0x0A) ?? raw.count
            let line = trimmingLineEnd(raw[lineStart..<lineEnd])
            let rest = line.dropFirst(delimiter.count)
            if line.starts(with: delimiter), rest.isEmpty || rest.elementsEqual("--".utf8) {
                if let start = contentStart {
                    // The line break before the delimiter belongs to it.
                    var end = lineStart
                    if end > start, raw[end - 1] == 0x0A { end -= 1 }
                    if end > start, raw[end - 1] == 0x0D { end -= 1 }
                    return crlf(raw[start..<max(start, end)])
                } else if rest.isEmpty {
                    contentStart = min(lineEnd + 1, raw.count)
                }
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// Where the body begins: after the first empty line.
    private static func bodyStart(of raw: [UInt8]) -> Int? {
        var index = 0
        while index < raw.count {
            let lineEnd = raw[index...].firstIndex(of: 0x0A) ?? raw.count
            if trimmingLineEnd(raw[index..<lineEnd]).isEmpty { return lineEnd + 1 }
            index = lineEnd + 1
        }
        return nil
    }

    /// The line without its CR and trailing spaces and tabs (allowed after a boundary).
    private static func trimmingLineEnd(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var line = line
        while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line = line.dropLast() }
        return line
    }

    /// `bytes` with every bare LF made CRLF.
    private static func crlf(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 40)
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0x0A, previous != 0x0D { out.append(0x0D) }
            out.append(byte)
            previous = byte
        }
        return out
    }
}
