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
