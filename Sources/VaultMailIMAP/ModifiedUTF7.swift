/// IMAP's mailbox-name encoding (RFC 3501 §5.1.3): printable ASCII as is, `&` as `&-`, and
/// everything else as UTF-16 in a modified base64 between `&` and `-` (`Entw&APw-rfe`).
enum ModifiedUTF7 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,".utf8)

    static func encode(_ name: String) -> String {
        var output = ""
        var pending: [UInt16] = []
        func flush() {
            guard !pending.isEmpty else { return }
            var bytes: [UInt8] = []
            for unit in pending { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            var encoded = "&"
            var index = 0
            while index < bytes.count {
                let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
                let value = (UInt32(chunk[0]) << 16) | (UInt32(chunk.count > 1 ? chunk[1] : 0) << 8)
                    | UInt32(chunk.count > 2 ? chunk[2] : 0)
                let characters = chunk.count + 1
                for position in 0..<characters {
                    let sextet = Int((value >> UInt32(18 - 6 * position)) & 0x3F)
                    encoded.append(Character(Unicode.Scalar(alphabet[sextet])))
                }
                index += 3
            }
            output += encoded + "-"
            pending = []
        }
        for scalar in name.unicodeScalars {
            if scalar.value >= 0x20 && scalar.value <= 0x7E {
                flush()
                output += scalar == "&" ? "&-" : String(scalar)
            } else {
                pending += Array(String(scalar).utf16)
            }
        }
        flush()
        return output
    }

    /// Decodes a name; a malformed shift sequence is kept literally rather than dropped.
    static func decode(_ encoded: String) -> String {
        let scalars = Array(encoded.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "&" else {
                output.append(scalar)
                continue
            }
            guard let end = scalars[index...].firstIndex(of: "-") else {
                output.append("&")
                output.append(contentsOf: scalars[index...])
                break
            }
            let body = Array(scalars[index..<end])
            index = end + 1
            if body.isEmpty {
                output.append("&")
            } else if let decoded = decodeBase64(body) {
                output.append(contentsOf: decoded.unicodeScalars)
            } else {
                output.append("&")
                output.append(contentsOf: body)
                output.append("-")
            }
        }
        return String(output)
    }

    private static func decodeBase64(_ scalars: [Unicode.Scalar]) -> String? {
        var bits: UInt32 = 0
        var bitCount = 0
        var bytes: [UInt8] = []
        for scalar in scalars {
            guard scalar.isASCII, let value = alphabet.firstIndex(of: UInt8(scalar.value)) else { return nil }
            bits = (bits << 6) | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8((bits >> UInt32(bitCount)) & 0xFF))
            }
        }
        guard bytes.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        for index in stride(from: 0, to: bytes.count, by: 2) {
            units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
        }
        return String(decoding: units, as: UTF16.self)
    }
}
