/// A D-Bus value with its type, for building and reading messages.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// An array whose elements have the type `element` (a signature such as "s" or "{sv}").
    case array(element: String, [DBusValue])
    /// One entry of a dictionary (`a{..}`).
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// An `a{sv}` dictionary from string keys to variants.
    public static func vardict(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(element: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(element: "s", strings.map(DBusValue.string))
    }

    public var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let inner): inner.stringValue
        default: nil
        }
    }

    public var uint32Value: UInt32? {
        switch self {
        case .uint32(let v): v
        case .variant(let inner): inner.uint32Value
        default: nil
        }
    }

    public var boolValue: Bool? {
        switch self {
        case .bool(let v): v
        case .variant(let inner): inner.boolValue
        default: nil
        }
    }

    /// The elements of an array, or nil.
    public var arrayValue: [DBusValue]? {
        if case .array(_, let elements) = self { elements } else { nil }
    }
}
