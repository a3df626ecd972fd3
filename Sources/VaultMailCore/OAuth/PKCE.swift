import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636) with the S256 method: a random verifier kept in
/// memory for one sign-in, and its SHA-256 challenge sent on the consent URL.
public struct PKCE: Sendable, Hashable {
    public let verifier: String
    public var challenge: String { Self.challenge(for: verifier) }
    public let method = "S256"

    /// A fresh verifier: 32 random bytes, base64url (43 characters).
    public init() {
        verifier = Self.randomToken()
    }

    public init(verifier: String) {
        self.verifier = verifier
    }

    /// BASE64URL(SHA256(ASCII(verifier))), without padding.
    public static func challenge(for verifier: String) -> String {
        base64URL(Array(SHA256.hash(data: Array(verifier.utf8))))
    }

    /// `count` bytes from the system's secure generator, base64url: for verifiers and `state`.
    public static func randomToken(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
