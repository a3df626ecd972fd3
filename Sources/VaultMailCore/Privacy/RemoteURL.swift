/// An http(s) URL as the tracker shield reads it: lowercased, with its host and path found.
/// Protocol-relative URLs (`//host/path`) are read as https.
struct RemoteURL: Sendable {
    /// The whole URL, lowercased, as bytes (what filters are matched against).
    let lowercased: [UInt8]
    /// The host, lowercased, without user info or port ("" when there is none).
    let host: String
    /// The index in `lowercased` right after the host (at `:port`, `/`, `?`, `#` or the end).
    let hostEnd: Int

    /// Reads `text`; nil unless it is an http:, https: or protocol-relative URL with a host.
    init?(_ text: String) {
        var bytes = Array(text.utf8)
        for index in bytes.indices where bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z") { bytes[index] += 32 }
        let start: Int
        if bytes.starts(with: "https://".utf8) { start = 8 } else if bytes.starts(with: "http://".utf8) { start = 7 } else if bytes.starts(with: "//".utf8) {
            bytes = Array("https:".utf8) + bytes
            start = 8
        } else {
            return nil
        }
        var end = start
        while end < bytes.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "\\")].contains(bytes[end]) { end += 1 }
        // user:password@host: left out, so that the host is matched from its first character
        // (the filters' `||` anchor).
        if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) {
            bytes.removeSubrange(start...at)
            end -= at + 1 - start
        }
        var hostEnd = start
        while hostEnd < end, bytes[hostEnd] != UInt8(ascii: ":") { hostEnd += 1 }
        var host = bytes[start..<hostEnd]
        while host.last == UInt8(ascii: ".") { host.removeLast() }
        guard !host.isEmpty else { return nil }
        self.lowercased = bytes
        self.host = String(decoding: host, as: UTF8.self)
        self.hostEnd = hostEnd
    }

    /// The path (from its `/`, without query or fragment), lowercased; "" when there is none.
    var path: Substring {
        let text = String(decoding: lowercased[hostEnd...], as: UTF8.self)
        guard let slash = text.firstIndex(of: "/") else { return "" }
        let tail = text[slash...]
        return tail[..<(tail.firstIndex { $0 == "?" || $0 == "#" } ?? tail.endIndex)]
    }

    /// Calls `body` with `host` and each shorter suffix of it at a dot, longest first, until it
    /// returns false.
    static func forEachSuffix(of host: String, _ body: (String) -> Bool) {
        var rest = Substring(host)
        while !rest.isEmpty {
            guard body(String(rest)) else { return }
            guard let dot = rest.firstIndex(of: ".") else { return }
            rest = rest[rest.index(after: dot)...]
        }
    }
}
