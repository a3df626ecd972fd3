internal import CGMime

/// Turns the bytes of a text part into a Swift string, whatever its charset claims.
///
/// - ASCII is ASCII, whatever the label.
/// - No charset, `us-ascii` or an `unknown-8bit` label over 8-bit bytes: the options' fallback
///   list (UTF-8, else windows-1252, else ISO-8859-1).
/// - `utf-8`: valid UTF-8 as is; bytes that are not UTF-8 at all (no multi-byte sequence in the
///   whole text: a mislabelled Latin-1 message) through the fallback list; otherwise broken
///   sequences become U+FFFD.
/// - `iso-8859-1` is read as windows-1252, as browsers do (mail labelled Latin-1 is full of
///   curly quotes from Windows).
/// - Anything else through iconv (GMime's charset filter); a charset iconv does not know goes
///   through the fallback list, and says so.
struct TextDecoder {
    let options: ParserOptions

    /// Charset labels that say nothing about 8-bit bytes.
    private static let undeclared: Set<String> = [
        "", "us-ascii", "ascii", "us_ascii", "ansi_x3.4-1968", "iso646-us", "unknown-8bit",
        "x-unknown", "unknown", "8bit", "default", "none", "x-user-defined",
    ]
    private static let latin1: Set<String> = ["iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "cp819"]

    /// The text, and a sentence when some of it could not be read as declared.
    func decode(_ bytes: [UInt8], charset declared: String?) -> (text: String, problem: String?) {
        let label = (declared ?? "").trimming(" \t\"'").lowercased()
        if bytes.allSatisfy({ $0 < 0x80 }), !Self.isSevenBitEncoding(label) {
            return (Self.tidy(String(decoding: bytes, as: UTF8.self)), nil)
        }
        if Self.isUndeclared(label) {
            return (Self.tidy(fallback(bytes)), nil)
        }
        if label == "utf-8" || label == "utf8" {
            if let valid = String(validating: bytes, as: UTF8.self) { return (Self.tidy(valid), nil) }
            if !Self.hasMultibyteUTF8(bytes) {
                return (Self.tidy(fallback(bytes)), "text labelled UTF-8 is not UTF-8; read as windows-1252")
            }
            return (Self.tidy(String(decoding: bytes, as: UTF8.self)), "text labelled UTF-8 holds invalid bytes (shown as \u{FFFD})")
        }
        let iconvName = Self.latin1.contains(label) ? "windows-1252" : label
        if let converted = convert(bytes, from: iconvName) {
            return (Self.tidy(converted), nil)
        }
        return (Self.tidy(fallback(bytes)), "unknown charset \"\(String(label.prefix(40)))\"; read as UTF-8, else windows-1252")
    }

    /// 8-bit text of unknown charset through the options' fallback list.
    func fallback(_ bytes: [UInt8]) -> String {
        // GMime returns a C string: NUL bytes would cut it short, and mean nothing in text.
        let text = bytes.filter { $0 != 0 }
        guard !text.isEmpty else { return "" }
        let decoded: String? = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                // (transfer full) a g_malloc'd string, freed here.
                guard let base = chars.baseAddress, let out = g_mime_utils_decode_8bit(options.pointer, base, chars.count) else {
                    return nil
                }
                defer { g_free(out) }
                return String(cString: out)
            }
        }
        return decoded ?? String(decoding: text, as: UTF8.self)
    }

    /// `bytes` converted from `charset` to UTF-8 by iconv; nil when iconv does not know it.
    private func convert(_ bytes: [UInt8], from charset: String) -> String? {
        let target = GObjectHandle(owning: g_mime_stream_mem_new()) // full
        // (transfer full) nil when iconv cannot open the charset.
        guard let filterPointer = cgmime_utf8_filter_stream(target.pointer, charset) else { return nil }
        let filter = GObjectHandle(owning: filterPointer)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress {
                    _ = g_mime_stream_write(filter.pointer, base, chars.count)
                }
            }
        }
        _ = g_mime_stream_flush(filter.pointer)
        return String(decoding: MemoryStream.bytes(of: target), as: UTF8.self)
    }

    /// Whether a (lowercased) charset label says nothing about 8-bit bytes.
    static func isUndeclared(_ label: String) -> Bool {
        undeclared.contains(label)
    }

    /// Charsets whose text is all ASCII bytes yet not ASCII text (UTF-7, ISO-2022-JP, HZ, and
    /// the UTF-16/32 family whose ASCII-looking bytes are halves of code units).
    static func isSevenBitEncoding(_ label: String) -> Bool {
        ["utf-7", "utf7", "unicode-1-1-utf-7", "iso-2022", "csiso2022", "hz", "utf-16", "utf16", "utf-32", "utf32", "ucs-2", "ucs-4", "ucs2", "ucs4"]
            .contains { label.hasPrefix($0) }
    }

    /// Line endings as "\n" (CRLF, and old Mac CR), and no NUL characters. A CR left at the very
    /// end is the half of a CRLF that GMime gave to a closing boundary: dropped.
    static func tidy(_ text: String) -> String {
        // Bytes, not characters: this runs on every header and body part of every message.
        var needsWork = false
        for byte in text.utf8 where byte == 0 || byte == 0x0D {
            needsWork = true
            break
        }
        guard needsWork else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var afterCR = false      // the last byte kept came from a CR
        var loneCRAtEnd = false  // that CR has no LF after it (yet)
        for byte in text.utf8 {
            switch byte {
            case 0:
                continue
            case 0x0D:
                out.append(0x0A)
                afterCR = true
                loneCRAtEnd = true
            case 0x0A:
                if !afterCR { out.append(0x0A) }
                afterCR = false
                loneCRAtEnd = false
            default:
                out.append(byte)
                afterCR = false
                loneCRAtEnd = false
            }
        }
        // A CR ending the text is dropped, not made a line break.
        if loneCRAtEnd { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `bytes` holds at least one well-formed multi-byte UTF-8 sequence.
    static func hasMultibyteUTF8(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default:
                index += 1
                continue
            }
            if index + length <= bytes.count,
               bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) {
                return true
            }
            index += 1
        }
        return false
    }
}

extension String {
    /// The string without the given characters at either end (no Foundation needed).
    func trimming(_ set: String) -> String {
        let drop: (Character) -> Bool = { set.contains($0) }
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
