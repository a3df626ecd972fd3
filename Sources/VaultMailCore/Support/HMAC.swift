/// HMAC-SHA256 (RFC 2104) over Core's own SHA-256, for tokens that prove they were made
/// with a secret: the web app's sign-in tokens and session cookies.
public enum HMAC {
    private static let blockSize = 64

    /// The 32-byte authentication code of `message` under `key`.
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + message)
        return SHA256.digest(block.map { $0 ^ 0x5c } + inner)
    }

    /// The code as lowercase hex.
    public static func sha256Hex(key: [UInt8], message: String) -> String {
        SHA256.hex(bytes: sha256(key: key, message: Array(message.utf8)))
    }

    /// Compares in time that does not depend on where the texts differ.
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
