import Foundation
internal import CEtPan

/// Converting between libetpan's structures and our Swift types.
extension IMAPSession {
    /// A new `mailimap_set` for `uids`; the caller frees it with `mailimap_set_free` (or hands
    /// it to a constructor that takes ownership).
    static func makeSet(_ uids: UIDSet) -> UnsafeMutablePointer<mailimap_set>? {
        guard let set = mailimap_set_new_empty() else { return nil }
        for range in uids.ranges {
            _ = mailimap_set_add_interval(set, range.lowerBound, range.upperBound)
        }
        if let openFrom = uids.openFrom {
            _ = mailimap_set_add_interval(set, openFrom, 0)  // 0 is `*`
        }
        return set
    }

    /// The numbers of a `mailimap_set` in order (`*` ends are skipped).
    static func numbers(in set: UnsafeMutablePointer<mailimap_set>?) -> [UInt32] {
        var result: [UInt32] = []
        forEach(set?.pointee.set_list, as: mailimap_set_item.self) { item in
            let first = item.pointee.set_first
            let last = item.pointee.set_last
            guard first != 0, last != 0 else { return }
            let range = min(first, last)...max(first, last)
            if range.count <= 1_000_000 { result += Array(range) }
        }
        return result
    }

    /// A new flag list for `flags`; the caller frees it with `mailimap_flag_list_free` (or hands
    /// it to a constructor that takes ownership). Keywords must be atoms.
    func makeFlagList(_ flags: Set<IMAPFlag>, operation: String) throws(IMAPError) -> UnsafeMutablePointer<mailimap_flag_list> {
        guard let list = mailimap_flag_list_new_empty() else {
            throw makeError(.protocolError, operation, reason: "out of memory")
        }
        for flag in flags.sorted(by: { $0.name < $1.name }) {
            let flagPointer: UnsafeMutablePointer<mailimap_flag>?
            switch flag {
            case .seen: flagPointer = mailimap_flag_new_seen()
            case .answered: flagPointer = mailimap_flag_new_answered()
            case .flagged: flagPointer = mailimap_flag_new_flagged()
            case .deleted: flagPointer = mailimap_flag_new_deleted()
            case .draft: flagPointer = mailimap_flag_new_draft()
            default:
                let name = flag.isSystemFlag ? String(flag.name.dropFirst()) : flag.name
                guard Self.isAtom(name), flag != .recent else {
                    mailimap_flag_list_free(list)
                    throw makeError(.invalidRequest, operation, reason: "\"\(flag.name)\" cannot be stored as a flag")
                }
                // Ownership: the flag takes the strdup'ed name (freed by mailimap_flag_free).
                flagPointer = flag.isSystemFlag
                    ? mailimap_flag_new_flag_extension(strdup(name)) : mailimap_flag_new_flag_keyword(strdup(name))
            }
            // Ownership: on success the list owns the flag.
            guard let flagPointer, mailimap_flag_list_add(list, flagPointer) == MAILIMAP_NO_ERROR else {
                mailimap_flag_list_free(list)
                throw makeError(.protocolError, operation, reason: "out of memory")
            }
        }
        return list
    }

    static func isAtom(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && !"(){%*\"\\]".utf8.contains(byte)
        }
    }

    /// Flags of a FETCH response (`\Recent` left out: it cannot be stored or changed).
    static func flags(of dynamic: UnsafeMutablePointer<mailimap_msg_att_dynamic>?) -> Set<IMAPFlag> {
        var flags: Set<IMAPFlag> = []
        forEach(dynamic?.pointee.att_list, as: mailimap_flag_fetch.self) { fetched in
            guard Int(fetched.pointee.fl_type) == MAILIMAP_FLAG_FETCH_OTHER, let flag = fetched.pointee.fl_flag else { return }
            if let converted = Self.flag(flag) { flags.insert(converted) }
        }
        return flags
    }

    static func flag(_ flag: UnsafeMutablePointer<mailimap_flag>) -> IMAPFlag? {
        switch Int(flag.pointee.fl_type) {
        case MAILIMAP_FLAG_ANSWERED: return .answered
        case MAILIMAP_FLAG_FLAGGED: return .flagged
        case MAILIMAP_FLAG_DELETED: return .deleted
        case MAILIMAP_FLAG_SEEN: return .seen
        case MAILIMAP_FLAG_DRAFT: return .draft
        case MAILIMAP_FLAG_KEYWORD:
            return flag.pointee.fl_data.fl_keyword.map { IMAPFlag(String(cString: $0)) }
        case MAILIMAP_FLAG_EXTENSION:
            return flag.pointee.fl_data.fl_extension.map { IMAPFlag("\\" + String(cString: $0)) }
        default: return nil
        }
    }

    /// One FETCH response as an `IMAPMessage`; nil when it carries no UID (an unsolicited
    /// flag update about another message).
    static func message(from attributes: UnsafeMutablePointer<mailimap_msg_att>) -> IMAPMessage? {
        var message = IMAPMessage(uid: 0, sequenceNumber: attributes.pointee.att_number)
        forEach(attributes.pointee.att_list, as: mailimap_msg_att_item.self) { item in
            switch Int(item.pointee.att_type) {
            case MAILIMAP_MSG_ATT_ITEM_DYNAMIC:
                message.flags = flags(of: item.pointee.att_data.att_dyn)
            case MAILIMAP_MSG_ATT_ITEM_STATIC:
                guard let staticItem = item.pointee.att_data.att_static else { return }
                read(staticItem, into: &message)
            case MAILIMAP_MSG_ATT_ITEM_EXTENSION:
                guard let data = item.pointee.att_data.att_extension_data, let api = data.pointee.ext_extension,
                    let payload = data.pointee.ext_data
                else { return }
                switch Int(api.pointee.ext_id) {
                case MAILIMAP_EXTENSION_XGMTHRID:
                    message.gmailThreadID = payload.load(as: UInt64.self)
                case MAILIMAP_EXTENSION_XGMMSGID:
                    message.gmailMessageID = payload.load(as: UInt64.self)
                case MAILIMAP_EXTENSION_CONDSTORE where Int(data.pointee.ext_type) == MAILIMAP_CONDSTORE_TYPE_FETCH_DATA:
                    message.modSeq = payload.assumingMemoryBound(to: mailimap_condstore_fetch_mod_resp.self).pointee.cs_modseq_value
                default: break
                }
            default: break
            }
        }
        return message.uid == 0 ? nil : message
    }

    private static func read(_ item: UnsafeMutablePointer<mailimap_msg_att_static>, into message: inout IMAPMessage) {
        switch Int(item.pointee.att_type) {
        case MAILIMAP_MSG_ATT_UID:
            message.uid = item.pointee.att_data.att_uid
        case MAILIMAP_MSG_ATT_RFC822_SIZE:
            message.size = item.pointee.att_data.att_rfc822_size
        case MAILIMAP_MSG_ATT_INTERNALDATE:
            if let date = item.pointee.att_data.att_internal_date { message.internalDate = Self.date(date.pointee) }
        case MAILIMAP_MSG_ATT_BODY_SECTION:
            guard let section = item.pointee.att_data.att_body_section else { return }
            if let bytes = section.pointee.sec_body_part {
                message.rawMessage = Data(bytes: bytes, count: section.pointee.sec_length)
            } else {
                message.rawMessage = Data()
            }
        case MAILIMAP_MSG_ATT_RFC822:
            if let bytes = item.pointee.att_data.att_rfc822.att_content {
                message.rawMessage = Data(bytes: bytes, count: item.pointee.att_data.att_rfc822.att_length)
            }
        default: break
        }
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    /// An IMAP date-time (`17-Jul-1996 02:44:25 -0700`) as a `Date`.
    static func date(_ value: mailimap_date_time) -> Date? {
        let components = DateComponents(
            year: Int(value.dt_year), month: Int(value.dt_month), day: Int(value.dt_day),
            hour: Int(value.dt_hour), minute: Int(value.dt_min), second: Int(value.dt_sec))
        guard let local = utcCalendar.date(from: components) else { return nil }
        let zone = Int(value.dt_zone)
        let offset = (zone >= 0 ? 1 : -1) * ((abs(zone) / 100) * 3600 + (abs(zone) % 100) * 60)
        return local.addingTimeInterval(TimeInterval(-offset))
    }

    /// A new IMAP date-time in UTC; the caller frees it with `mailimap_date_time_free`.
    static func makeDateTime(_ date: Date) -> UnsafeMutablePointer<mailimap_date_time>? {
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return mailimap_date_time_new(
            Int32(parts.day ?? 1), Int32(parts.month ?? 1), Int32(parts.year ?? 1970),
            Int32(parts.hour ?? 0), Int32(parts.minute ?? 0), Int32(parts.second ?? 0), 0)
    }

    /// A new IMAP date (day granularity, UTC); the caller hands it to a search key or frees it.
    static func makeDate(_ date: Date) -> UnsafeMutablePointer<mailimap_date>? {
        let parts = utcCalendar.dateComponents([.year, .month, .day], from: date)
        return mailimap_date_new(Int32(parts.day ?? 1), Int32(parts.month ?? 1), Int32(parts.year ?? 1970))
    }
}

extension IMAPSession {
    /// The parts of one untagged FETCH response read outside libetpan's parser: its sequence
    /// number, UID and body sections (`BODY[HEADER]` → bytes). Other items are skipped.
    struct FetchedBodySections: Equatable {
        var sequenceNumber: UInt32
        var uid: UInt32?
        /// Section name as the server wrote it, upper-cased without `BODY`, e.g. `HEADER`, `TEXT`,
        /// `` (the whole message); a NIL section is empty.
        var sections: [String: Data]

        /// Parses `* 12 FETCH (UID 7 BODY[HEADER] {4}\r\n…)` with every literal inline after its
        /// `{n}\r\n` (as `readLine` returns it). nil for any other response or a malformed one.
        init?(_ line: [UInt8]) {
            var cursor = Cursor(bytes: line)
            guard cursor.take("* "), let number = cursor.number(), cursor.take(" "), cursor.takeWord("FETCH"),
                  cursor.take(" "), cursor.take("(")
            else { return nil }
            sequenceNumber = UInt32(clamping: number)
            sections = [:]
            while true {
                cursor.skipSpaces()
                if cursor.take(")") || cursor.atEnd { break }
                guard let name = cursor.itemName() else { return nil }
                cursor.skipSpaces()
                let upper = name.uppercased()
                if upper == "UID" {
                    guard let value = cursor.number() else { return nil }
                    uid = UInt32(clamping: value)
                } else if upper.hasPrefix("BODY[") || upper.hasPrefix("BINARY[") {
                    guard let value = cursor.nstring() else { return nil }
                    let afterOpen = upper.firstIndex(of: "[").map { upper.index(after: $0) } ?? upper.endIndex
                    let close = upper.lastIndex(of: "]") ?? upper.endIndex
                    sections[afterOpen <= close ? String(upper[afterOpen..<close]) : ""] = value
                } else if !cursor.skipValue() {
                    return nil
                }
            }
        }

        /// A byte cursor over IMAP response data.
        private struct Cursor {
            let bytes: [UInt8]
            var position = 0

            var atEnd: Bool { position >= bytes.count }

            func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

            mutating func take(_ text: String) -> Bool {
                let expected = Array(text.utf8)
                guard position + expected.count <= bytes.count, Array(bytes[position..<position + expected.count]) == expected else {
                    return false
                }
                position += expected.count
                return true
            }

            mutating func takeWord(_ word: String) -> Bool {
                let expected = Array(word.utf8)
                guard position + expected.count <= bytes.count else { return false }
                for (offset, byte) in expected.enumerated() where Self.upper(bytes[position + offset]) != byte { return false }
                position += expected.count
                return true
            }

            mutating func skipSpaces() {
                while peek() == UInt8(ascii: " ") { position += 1 }
            }

            mutating func number() -> UInt64? {
                let start = position
                var value: UInt64 = 0
                while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                    guard !overflow1, !overflow2 else { return nil }
                    value = sum
                    position += 1
                }
                return position > start ? value : nil
            }

            /// An item name: letters, digits, dots and dashes, with a bracketed section (which may
            /// hold spaces and parentheses, `BODY[HEADER.FIELDS (SUBJECT)]`) and a `<origin>`.
            mutating func itemName() -> String? {
                let start = position
                var depth = 0
                while let byte = peek() {
                    if byte == UInt8(ascii: "[") { depth += 1 }
                    if byte == UInt8(ascii: "]") { depth -= 1 }
                    if depth <= 0 && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")) { break }
                    if byte == 0x0D || byte == 0x0A { break }
                    position += 1
                }
                return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
            }

            /// A literal (`{n}` or `~{n}`, CRLF, n bytes), a quoted string or NIL (empty).
            mutating func nstring() -> Data? {
                if takeWord("NIL") { return Data() }
                if peek() == UInt8(ascii: "\"") { return quoted() }
                return literal()
            }

            mutating func literal() -> Data? {
                _ = take("~")
                guard take("{"), let count = number() else { return nil }
                _ = take("+")
                guard take("}"), take("\r\n") || take("\n"), count <= UInt64(bytes.count - position) else { return nil }
                let end = position + Int(count)
                defer { position = end }
                return Data(bytes[position..<end])
            }

            mutating func quoted() -> Data? {
                guard take("\"") else { return nil }
                var text: [UInt8] = []
                while let byte = peek() {
                    position += 1
                    if byte == UInt8(ascii: "\"") { return Data(text) }
                    if byte == UInt8(ascii: "\\"), let escaped = peek() {
                        position += 1
                        text.append(escaped)
                    } else {
                        text.append(byte)
                    }
                }
                return nil
            }

            /// Skips one value: a list, a string, a literal or an atom. False when malformed.
            mutating func skipValue() -> Bool {
                guard let first = peek() else { return false }
                switch first {
                case UInt8(ascii: "("):
                    position += 1
                    while true {
                        skipSpaces()
                        guard let byte = peek() else { return false }
                        if byte == UInt8(ascii: ")") {
                            position += 1
                            return true
                        }
                        guard skipValue() else { return false }
                    }
                case UInt8(ascii: "\""): return quoted() != nil
                case UInt8(ascii: "{"), UInt8(ascii: "~"): return literal() != nil
                default: return itemName() != nil
                }
            }

            private static func upper(_ byte: UInt8) -> UInt8 {
                byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
            }
        }
    }
}
