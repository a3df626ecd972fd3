import Foundation

/// One Autocrypt Level 1 header (issue 32): `Autocrypt:` on every outgoing message (the
/// sender's key), and `Autocrypt-Gossip:` inside encrypted mail to several people (each
/// recipient's key, so they can answer all).
public struct AutocryptHeader: Sendable, Hashable {
    /// The address the key is for (the message's From for `Autocrypt:`).
    public var address: String
    /// `prefer-encrypt=mutual` (a new account prefers it, as the specification advises); never
    /// written in gossip.
    public var preferMutual: Bool
    /// The key as `keydata` carries it: binary OpenPGP, minimal.
    public var keyData: [UInt8]

    public init(address: String, preferMutual: Bool, keyData: [UInt8]) {
        self.address = address
        self.preferMutual = preferMutual
        self.keyData = keyData
    }

    /// Reads one header value (`addr=…; prefer-encrypt=mutual; keydata=…`, Level 1 §2.1), or
    /// nil when it is not usable: `addr` or `keydata` missing or unreadable, or an attribute
    /// it does not know that does not start with `_` (those are ignored). A `prefer-encrypt`
    /// other than `mutual` means no preference. White space in `keydata` is ignored.
    public static func parse(_ value: String) -> AutocryptHeader? {
        var address: String?
        var mutual = false
        var keyData: [UInt8]?
        for attribute in value.split(separator: ";") {
            let trimmed = attribute.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let text = String(trimmed[trimmed.index(after: equals)...])
            switch name {
            case "addr":
                guard address == nil else { return nil }
                address = text.trimmingCharacters(in: .whitespaces)
            case "prefer-encrypt":
                mutual = text.trimmingCharacters(in: .whitespaces).lowercased() == "mutual"
            case "keydata":
                guard keyData == nil else { return nil }
                let base64 = text.filter { !$0.isWhitespace }
                guard let data = Data(base64Encoded: base64), !data.isEmpty else { return nil }
                keyData = [UInt8](data)
            default:
                guard name.hasPrefix("_") else { return nil }
            }
        }
        guard let address, address.contains("@"), let keyData else { return nil }
        return AutocryptHeader(address: address, preferMutual: mutual, keyData: keyData)
    }

    /// The value's tokens for folding (`MIMEEncoding.header`): the attributes, then the base64
    /// key data in pieces of 76 characters (white space in `keydata` is ignored by readers).
    var tokens: [String] {
        var tokens = ["addr=\(address);"]
        if preferMutual { tokens.append("prefer-encrypt=mutual;") }
        let base64 = Data(keyData).base64EncodedString()
        var pieces: [String] = []
        var start = base64.startIndex
        while start < base64.endIndex {
            let end = base64.index(start, offsetBy: 76, limitedBy: base64.endIndex) ?? base64.endIndex
            pieces.append(String(base64[start..<end]))
            start = end
        }
        return tokens + ["keydata="] + pieces
    }
}
