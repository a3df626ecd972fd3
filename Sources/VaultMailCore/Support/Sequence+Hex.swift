extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hex digits, two a byte: how digests are written here (stable ids,
    /// ETags, model files in `sha256sum`'s format) and how random tokens are spelled.
    ///
    /// ```swift
    /// SHA256.hash(data: Array("abc".utf8)).hexString  // "ba7816bf…f20015ad"
    /// ```
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
