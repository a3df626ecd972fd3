internal import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing message bodies as `DBusValue`s, one sd-bus call per value.
enum DBusMessageCoding {
    private static func code(_ character: Character) -> CChar { CChar(bitPattern: character.asciiValue!) }

    // MARK: Writing

    static func append(_ values: [DBusValue], to message: OpaquePointer) throws {
        for value in values { try append(value, to: message) }
    }

    static func append(_ value: DBusValue, to message: OpaquePointer) throws {
        func basic<T>(_ type: Character, _ raw: T) throws {
            var raw = raw
            try check("append", withUnsafePointer(to: &raw) { sd_bus_message_append_basic(message, code(type), $0) })
        }
        func container(_ type: Character, _ contents: String, _ body: () throws -> Void) throws {
            try check("open container", sd_bus_message_open_container(message, code(type), contents))
            try body()
            try check("close container", sd_bus_message_close_container(message))
        }
        switch value {
        case .byte(let v): try basic("y", v)
        case .bool(let v): try basic("b", Int32(v ? 1 : 0))
        case .int16(let v): try basic("n", v)
        case .uint16(let v): try basic("q", v)
        case .int32(let v): try basic("i", v)
        case .uint32(let v): try basic("u", v)
        case .int64(let v): try basic("x", v)
        case .uint64(let v): try basic("t", v)
        case .double(let v): try basic("d", v)
        case .string(let s), .objectPath(let s), .signature(let s):
            // Strings are passed by pointer to their first character, not by pointer to pointer.
            try check("append", s.withCString { sd_bus_message_append_basic(message, code(Character(value.signature)), $0) })
        case .array(let element, let elements):
            try container("a", element) { try elements.forEach { try append($0, to: message) } }
        case .dictEntry(let key, let entryValue):
            try container("e", key.signature + entryValue.signature) {
                try append(key, to: message)
                try append(entryValue, to: message)
            }
        case .structure(let fields):
            try container("r", fields.map(\.signature).joined()) { try fields.forEach { try append($0, to: message) } }
        case .variant(let inner):
            try container("v", inner.signature) { try append(inner, to: message) }
        }
    }

    // MARK: Reading

    /// Every value left in the message (or the current container).
    static func readAll(_ message: OpaquePointer) throws -> [DBusValue] {
        var values: [DBusValue] = []
        while let next = try readNext(message) { values.append(next) }
        return values
    }

    private static func readNext(_ message: OpaquePointer) throws -> DBusValue? {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>?
        let more = sd_bus_message_peek_type(message, &type, &contentsPointer)
        try check("peek", more)
        guard more > 0 else { return nil }
        let contents = contentsPointer.map { String(cString: $0) } ?? ""
        func basic<T>(_ initial: T) throws -> T {
            var raw = initial
            try check("read", withUnsafeMutablePointer(to: &raw) { sd_bus_message_read_basic(message, type, $0) })
            return raw
        }
        func inside(_ body: () throws -> DBusValue) throws -> DBusValue {
            try check("enter container", sd_bus_message_enter_container(message, type, contents))
            let value = try body()
            try check("exit container", sd_bus_message_exit_container(message))
            return value
        }
        switch UnicodeScalar(UInt8(bitPattern: type)) {
        case "y": return .byte(try basic(UInt8(0)))
        case "b": return .bool(try basic(Int32(0)) != 0)
        case "n": return .int16(try basic(Int16(0)))
        case "q": return .uint16(try basic(UInt16(0)))
        case "i", "h": return .int32(try basic(Int32(0)))
        case "u": return .uint32(try basic(UInt32(0)))
        case "x": return .int64(try basic(Int64(0)))
        case "t": return .uint64(try basic(UInt64(0)))
        case "d": return .double(try basic(Double(0)))
        case "s", "o", "g":
            var pointer: UnsafePointer<CChar>?
            try check("read", sd_bus_message_read_basic(message, type, &pointer))
            let text = pointer.map { String(cString: $0) } ?? ""
            return type == code("s") ? .string(text) : type == code("o") ? .objectPath(text) : .signature(text)
        case "a": return try inside { .array(element: contents, try readAll(message)) }
        case "e":
            return try inside {
                let pair = try readAll(message)
                guard pair.count == 2 else { throw DBusError.unexpectedReply(member: "dict entry", signature: contents) }
                return .dictEntry(pair[0], pair[1])
            }
        case "r": return try inside { .structure(try readAll(message)) }
        case "v":
            return try inside {
                guard let inner = try readNext(message) else { throw DBusError.unexpectedReply(member: "variant", signature: contents) }
                return .variant(inner)
            }
        default:
            throw DBusError.unexpectedReply(member: "message", signature: String(UnicodeScalar(UInt8(bitPattern: type))))
        }
    }

    /// sd-bus returns negative errno values on failure.
    @discardableResult
    static func check(_ operation: String, _ result: Int32) throws -> Int32 {
        if result < 0 { throw DBusError.local(operation: operation, code: result) }
        return result
    }
}
