/// The Content-IDs an HTML body refers to with `cid:` URLs (RFC 2392), e.g.
/// `<img src="cid:logo@example.com">`: the parts shown in the body rather than listed as
/// attachments.
enum ContentIDReferences {
    /// Every `cid:` reference in `html`, percent-decoded, without angle brackets, lowercased.
    static func referenced(in html: [String]) -> Set<String> {
        var found = Set<String>()
        for text in html {
            let bytes = Array(text.utf8)
            var index = 0
            while index + 4 <= bytes.count {
                guard Self.isCID(bytes, at: index) else {
                    index += 1
                    continue
                }
                // "cid:" must start a URL, not end a longer word ("acid:").
                let starts = index == 0 || !Self.isWordByte(bytes[index - 1])
                index += 4
                let start = index
                while index < bytes.count, !Self.ends(bytes[index]) { index += 1 }
                guard starts, index > start else { continue }
                let id = normalized(percentDecoded(Array(bytes[start..<index])))
                if !id.isEmpty { found.insert(id) }
            }
        }
        return found
    }

    /// A Content-ID as it is compared: without angle brackets or spaces, lowercased.
    static func normalized(_ contentId: String) -> String {
        var id = Substring(contentId.trimming(" \t\r\n"))
        if id.hasPrefix("<") { id = id.dropFirst() }
        if id.hasSuffix(">") { id = id.dropLast() }
        return id.lowercased()
    }

    private static func isCID(_ bytes: [UInt8], at index: Int) -> Bool {
        (bytes[index] | 0x20) == UInt8(ascii: "c") && (bytes[index + 1] | 0x20) == UInt8(ascii: "i")
            && (bytes[index + 2] | 0x20) == UInt8(ascii: "d") && bytes[index + 3] == UInt8(ascii: ":")
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || (byte >= 0x30 && byte <= 0x39)
    }

    /// Where a URL in an attribute or a CSS `url()` ends.
    private static func ends(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "&")
    }

    private static func percentDecoded(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                out.append(value)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
