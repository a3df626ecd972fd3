import Foundation
import VaultMailCore

/// The one-time token `vaultmail open` hands the browser: `<expires>.<nonce>.<mac>`, where the
/// MAC is made with the web secret. The server accepts each nonce once, before it expires.
public enum SignInToken {
    /// How long a token stays good: long enough for a browser to start.
    public static let lifetime: TimeInterval = 120

    /// A new token, good for `lifetime` seconds from `now`.
    public static func make(secret: WebSecret, now: Date = Date()) -> String {
        let nonce = WebSecret.randomBytes(16).hexString
        let expires = Int(now.timeIntervalSince1970 + lifetime)
        return "\(expires).\(nonce).\(secret.sign("signin|\(expires)|\(nonce)"))"
    }

    /// The nonce of a token that is well made and not expired; nil otherwise.
    static func validNonce(_ token: String, secret: WebSecret, now: Date) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let expires = Int(parts[0]) else { return nil }
        let seconds = Int(now.timeIntervalSince1970)
        guard expires >= seconds, expires <= seconds + Int(lifetime) + 5 else { return nil }
        guard secret.isSignature(parts[2], of: "signin|\(parts[0])|\(parts[1])") else { return nil }
        return parts[1]
    }
}

/// Nonces of sign-in tokens already used, so each token signs in once.
actor UsedSignInTokens {
    private var used: [String: Date] = [:]

    /// True the first time `nonce` is presented.
    func claim(_ nonce: String, now: Date) -> Bool {
        used = used.filter { $0.value > now }
        guard used[nonce] == nil else { return false }
        used[nonce] = now.addingTimeInterval(SignInToken.lifetime + 10)
        return true
    }
}
