import Crypto
import Foundation
import VaultMailCore

/// The random key that signs sign-in tokens, session cookies and CSRF tokens. It lives in the
/// VaultMail home, readable by its owner only, so only the user (and `vaultmail open`, run as the
/// user) can make a token the server accepts; another local user cannot.
public struct WebSecret: Sendable {
    private let key: SymmetricKey

    init(key: [UInt8]) { self.key = SymmetricKey(data: key) }

    /// Reads the secret at `url`, creating it (mode 0600) on first use. A file others could
    /// read is made private again.
    public static func loadOrCreate(at url: URL) throws -> WebSecret {
        if let secret = try load(at: url) { return secret }
        let key = randomBytes(32)
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST, let secret = try load(at: url) { return secret }
            throw WebError.secret(url.path, String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let text = Array(key.hexString.utf8)
        guard write(descriptor, text, text.count) == text.count else {
            throw WebError.secret(url.path, String(cString: strerror(errno)))
        }
        return WebSecret(key: key)
    }

    /// Reads the secret at `url`; nil when there is none yet.
    public static func load(at url: URL) throws -> WebSecret? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        var status = stat()
        if stat(url.path, &status) == 0, status.st_mode & 0o077 != 0 {
            guard chmod(url.path, 0o600) == 0 else {
                throw WebError.secret(url.path, "others can read it and it cannot be made private (\(String(cString: strerror(errno))))")
            }
        }
        let text = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = Self.bytes(hex: text), key.count >= 32 else {
            throw WebError.secret(url.path, "it is not a VaultMail web secret; delete it and start the daemon again")
        }
        return WebSecret(key: key)
    }

    /// Bytes from the system's cryptographic generator (getrandom).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The signature of `message`: its HMAC-SHA256 under this secret, as lowercase hex.
    func sign(_ message: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Array(message.utf8), using: key).hexString
    }

    /// True when `presented` is `sign(message)`, or with `digits` its first that many hex
    /// digits (the CSRF token). The texts are compared by their SHA-256 digests, which
    /// swift-crypto compares in constant time: the time taken does not tell where they differ.
    func isSignature(_ presented: String, of message: String, digits: Int = 2 * SHA256.byteCount) -> Bool {
        let expected = String(sign(message).prefix(digits))
        return SHA256.hash(data: Array(presented.utf8)) == SHA256.hash(data: Array(expected.utf8))
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
