/// The fields of a query string or an `application/x-www-form-urlencoded` body, in order,
/// repeated names kept (a list of selected threads is `t=…&t=…`).
struct FormFields: Sendable {
    private(set) var pairs: [(name: String, value: String)] = []

    init() {}

    init(_ encoded: some StringProtocol) {
        for field in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            guard !name.isEmpty else { continue }
            pairs.append((name, parts.count > 1 ? Self.decode(parts[1]) : ""))
        }
    }

    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    /// The fields as a query string.
    var encoded: String {
        pairs.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
    }

    /// Percent-decoding with `+` as a space; a broken escape is kept as it is.
    static func decode(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                      let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Percent-encodes a value for a URL's query.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: ":"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
