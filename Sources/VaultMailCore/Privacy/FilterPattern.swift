/// The URL pattern of one network filter in Adblock Plus / uBlock syntax, compiled for matching
/// against a lowercased URL: literal runs, `*` (any run of characters) and `^` (a separator: any
/// character but a letter, a digit or one of `_-.%`, or the end of the URL).
struct FilterPattern: Sendable {
    enum Piece: Sendable, Equatable {
        case literal([UInt8])
        case wildcard
        case separator
    }

    let pieces: [Piece]
    /// `|` at the start: the pattern matches from the first character on.
    let anchoredStart: Bool
    /// `|` at the end: the pattern matches up to the last character.
    let anchoredEnd: Bool

    /// Compiles `text` (lowercased, without `||`, options or a leading/trailing `|` already read).
    init(_ text: some Collection<UInt8>, anchoredStart: Bool, anchoredEnd: Bool) {
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)); literal = [] }
        }
        for byte in text {
            switch byte {
            case UInt8(ascii: "*"):
                flush()
                if pieces.last != .wildcard { pieces.append(.wildcard) }
            case UInt8(ascii: "^"):
                flush()
                pieces.append(.separator)
            default:
                literal.append(byte)
            }
        }
        flush()
        // A leading or trailing wildcard says nothing an unanchored pattern does not.
        var start = anchoredStart, end = anchoredEnd
        if pieces.first == .wildcard { pieces.removeFirst(); start = false }
        if pieces.last == .wildcard { pieces.removeLast(); end = false }
        self.pieces = pieces
        self.anchoredStart = start
        self.anchoredEnd = end
    }

    /// Whether the pattern says nothing (matches every URL): such a filter is never used.
    var matchesEverything: Bool { pieces.isEmpty }

    /// Whether the pattern matches `url` (lowercased bytes) starting exactly at `start` when
    /// `anchored`, else anywhere from `start` on.
    func matches(_ url: UnsafeBufferPointer<UInt8>, from start: Int, anchored: Bool) -> Bool {
        if anchored || anchoredStart { return match(url, start, 0) }
        // Unanchored: try each place the first piece can begin.
        var position = start
        while position <= url.count {
            if match(url, position, 0) { return true }
            position += 1
        }
        return false
    }

    private func match(_ url: UnsafeBufferPointer<UInt8>, _ position: Int, _ index: Int) -> Bool {
        guard index < pieces.count else { return !anchoredEnd || position == url.count }
        switch pieces[index] {
        case .literal(let bytes):
            guard position + bytes.count <= url.count else { return false }
            for offset in 0..<bytes.count where url[position + offset] != bytes[offset] { return false }
            return match(url, position + bytes.count, index + 1)
        case .separator:
            if position == url.count { return match(url, position, index + 1) }
            guard Self.isSeparator(url[position]) else { return false }
            return match(url, position + 1, index + 1)
        case .wildcard:
            var next = position
            while next <= url.count {
                if match(url, next, index + 1) { return true }
                next += 1
            }
            return false
        }
    }

    static func isSeparator(_ byte: UInt8) -> Bool {
        !(isTokenByte(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."))
    }

    /// The characters of a token: what the matcher indexes filters by and splits URLs into.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "%")
    }

    /// Tokens that almost every URL holds: a filter is indexed by another one when it has one.
    private static let commonTokens: Set<[UInt8]> = Set(["http", "https", "www", "com", "net", "org", "html", "php", "gif", "png", "jpg", "js"].map { Array($0.utf8) })

    /// The token to index the pattern by: the longest run of token characters that a URL the
    /// pattern matches must hold as a whole token (bounded by non-token characters, not by a
    /// wildcard or an unanchored end); nil when there is none.
    var indexToken: [UInt8]? {
        var best: [UInt8]? = nil
        var bestIsCommon = true
        for (index, piece) in pieces.enumerated() {
            guard case .literal(let bytes) = piece else { continue }
            var start = 0
            while start < bytes.count {
                guard Self.isTokenByte(bytes[start]) else { start += 1; continue }
                var end = start
                while end < bytes.count, Self.isTokenByte(bytes[end]) { end += 1 }
                let boundedBefore = start > 0 || (index > 0 ? pieces[index - 1] == .separator : anchoredStart)
                let boundedAfter = end < bytes.count || (index + 1 < pieces.count ? pieces[index + 1] == .separator : anchoredEnd)
                if boundedBefore, boundedAfter, end - start >= 2 {
                    let token = Array(bytes[start..<end])
                    let common = Self.commonTokens.contains(token)
                    if best == nil || (bestIsCommon && !common) || (common == bestIsCommon && token.count > best!.count) {
                        best = token
                        bestIsCommon = common
                    }
                }
                start = end
            }
        }
        return best
    }
}
