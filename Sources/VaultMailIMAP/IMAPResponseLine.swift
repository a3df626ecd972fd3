/// One response line read outside libetpan's parser (during IDLE, after DONE, for NOOP, STATUS
/// and NOTIFY), classified. Only what those need is understood; other untagged data is `.other`.
enum IMAPResponseLine: Equatable {
    /// `+ idling`
    case continuation
    /// `* 3 EXISTS`, `* 2 EXPUNGE`, `* 4 FETCH (FLAGS (\Seen) UID 9)`, `* VANISHED 5:6`,
    /// `* STATUS Junk (MESSAGES 3 UIDNEXT 9)`, `* OK [NOTIFICATIONOVERFLOW]`
    case event(IMAPServerEvent)
    /// `* BYE …`: the server is closing the connection.
    case bye(text: String)
    /// Any other untagged response (`* 1 RECENT`, `* OK Still here`).
    case other
    /// `A12 OK Idle completed.` — `status` is OK, NO or BAD.
    case tagged(tag: String, status: String, text: String)

    init(_ line: [UInt8]) {
        var bytes = line[...]
        while let last = bytes.last, last == 0x0D || last == 0x0A { bytes = bytes.dropLast() }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("+") {
            self = .continuation
            return
        }
        if !text.hasPrefix("* ") {
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            self = .tagged(
                tag: parts.first.map(String.init) ?? "",
                status: parts.count > 1 ? parts[1].uppercased() : "",
                text: parts.count > 2 ? String(parts[2]) : "")
            return
        }
        var scanner = Scanner(Array(bytes.dropFirst(2)))
        guard let first = scanner.atom() else {
            self = .other
            return
        }
        if first.uppercased() == "BYE" {
            self = .bye(text: scanner.rest())
            return
        }
        if first.uppercased() == "STATUS" {
            self = Self.status(&scanner) ?? .other
            return
        }
        if first.uppercased() == "OK", scanner.atom()?.uppercased() == "[NOTIFICATIONOVERFLOW]" {
            self = .event(.notificationOverflow)
            return
        }
        if first.uppercased() == "VANISHED" {
            scanner.skipSpaces()
            if scanner.peek() == UInt8(ascii: "(") { _ = scanner.value() }  // (EARLIER)
            scanner.skipSpaces()
            let set = scanner.atom() ?? ""
            self = .event(.vanished(uids: Self.uids(in: set)))
            return
        }
        guard let number = UInt32(first) else {
            self = .other
            return
        }
        scanner.skipSpaces()
        switch scanner.atom()?.uppercased() {
        case "EXISTS": self = .event(.exists(count: number))
        case "EXPUNGE": self = .event(.expunged(sequenceNumber: number))
        case "FETCH":
            scanner.skipSpaces()
            self = Self.fetch(sequenceNumber: number, items: scanner.value()) ?? .other
        default: self = .other
        }
    }

    /// `STATUS <mailbox> (<name> <number> …)`; the mailbox an atom, a quoted string or a
    /// literal, in modified UTF-7.
    private static func status(_ scanner: inout Scanner) -> IMAPResponseLine? {
        guard let raw = scanner.astring(), case .list(let values)? = scanner.value() else { return nil }
        var name = ModifiedUTF7.decode(raw)
        if name.uppercased() == "INBOX" { name = "INBOX" }
        var status = IMAPStatusResponse(mailbox: name)
        var index = 0
        while index + 1 < values.count {
            guard case .atom(let item) = values[index], case .atom(let number) = values[index + 1] else { break }
            switch item.uppercased() {
            case "MESSAGES": status.messages = UInt32(number)
            case "UIDNEXT": status.uidNext = UInt32(number)
            case "UIDVALIDITY": status.uidValidity = UInt32(number)
            case "UNSEEN": status.unseen = UInt32(number)
            case "HIGHESTMODSEQ": status.highestModSeq = UInt64(number)
            default: break  // RECENT, SIZE, …
            }
            index += 2
        }
        return .event(.mailboxStatus(status))
    }

    private static func fetch(sequenceNumber: UInt32, items: Scanner.Value?) -> IMAPResponseLine? {
        guard case .list(let values) = items else { return nil }
        var flags: Set<IMAPFlag>?
        var uid: UInt32?
        var modSeq: UInt64?
        var index = 0
        while index + 1 < values.count {
            guard case .atom(let name) = values[index] else { break }
            let value = values[index + 1]
            switch name.uppercased() {
            case "FLAGS":
                if case .list(let list) = value {
                    // \Recent is left out, as in fetch results: it can be neither stored nor changed.
                    flags = Set(list.compactMap { if case .atom(let flag) = $0 { IMAPFlag(flag) } else { nil } })
                        .subtracting([.recent])
                }
            case "UID":
                if case .atom(let number) = value { uid = UInt32(number) }
            case "MODSEQ":
                if case .list(let list) = value, case .atom(let number)? = list.first { modSeq = UInt64(number) }
            default: break
            }
            index += 2
        }
        guard let flags else { return nil }
        return .event(.flagsChanged(sequenceNumber: sequenceNumber, uid: uid, flags: flags, modSeq: modSeq))
    }

    /// `1:3,7` → [1, 2, 3, 7]; ranges of more than 100 000 UIDs are not expanded.
    static func uids(in set: String) -> [UInt32] {
        var result: [UInt32] = []
        for part in set.split(separator: ",") {
            let bounds = part.split(separator: ":").compactMap { UInt32($0) }
            if bounds.count == 1 {
                result.append(bounds[0])
            } else if bounds.count == 2 {
                let range = min(bounds[0], bounds[1])...max(bounds[0], bounds[1])
                if range.count <= 100_000 { result += Array(range) }
            }
        }
        return result
    }

    /// A tiny tokenizer for IMAP response data: atoms, numbers, quoted strings, lists.
    private struct Scanner {
        enum Value: Equatable {
            case atom(String)
            case quoted(String)
            case list([Value])
        }

        var bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpaces() {
            while position < bytes.count && bytes[position] == UInt8(ascii: " ") { position += 1 }
        }

        mutating func rest() -> String {
            skipSpaces()
            defer { position = bytes.count }
            return String(decoding: bytes[position...], as: UTF8.self)
        }

        /// Characters up to a space or parenthesis. Brackets stay inside (BODY[HEADER]).
        mutating func atom() -> String? {
            skipSpaces()
            let start = position
            var depth = 0
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "]") { depth -= 1 }
                if depth <= 0 && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")) {
                    break
                }
                position += 1
            }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        /// A mailbox name or other string: quoted, a literal, or an atom.
        mutating func astring() -> String? {
            skipSpaces()
            switch peek() {
            case UInt8(ascii: "\""), UInt8(ascii: "{"):
                if case .quoted(let text)? = value() { return text }
                return nil
            default:
                return atom()
            }
        }

        /// `{5}` or `{5+}`, CRLF, then five bytes (the line reader keeps literals inline).
        private mutating func literal() -> Value? {
            guard let close = bytes[position...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
            var digits = bytes[(position + 1)..<close]
            if digits.last == UInt8(ascii: "+") { digits = digits.dropLast() }
            guard let count = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
            var start = close + 1
            if start < bytes.count && bytes[start] == 0x0D { start += 1 }
            if start < bytes.count && bytes[start] == 0x0A { start += 1 }
            guard count >= 0, start + count <= bytes.count else { return nil }
            position = start + count
            return .quoted(String(decoding: bytes[start..<position], as: UTF8.self))
        }

        mutating func value() -> Value? {
            skipSpaces()
            guard let byte = peek() else { return nil }
            if byte == UInt8(ascii: "{") { return literal() }
            if byte == UInt8(ascii: "(") {
                position += 1
                var values: [Value] = []
                while true {
                    skipSpaces()
                    guard let next = peek() else { return .list(values) }
                    if next == UInt8(ascii: ")") {
                        position += 1
                        return .list(values)
                    }
                    guard let value = value() else { return .list(values) }
                    values.append(value)
                }
            }
            if byte == UInt8(ascii: "\"") {
                position += 1
                var text: [UInt8] = []
                while position < bytes.count && bytes[position] != UInt8(ascii: "\"") {
                    if bytes[position] == UInt8(ascii: "\\") && position + 1 < bytes.count { position += 1 }
                    text.append(bytes[position])
                    position += 1
                }
                position += 1
                return .quoted(String(decoding: text, as: UTF8.self))
            }
            if byte == UInt8(ascii: ")") { return nil }
            return atom().map(Value.atom)
        }
    }
}
