import Foundation
import VaultMailCore

/// A signed-in browser: the session cookie's content, and the CSRF token its pages carry.
/// Both are derived from the secret, so they survive a daemon restart and die with the secret.
struct WebSession: Sendable, Equatable {
    static let cookieName = "vaultmail_session"
    static let lifetime: TimeInterval = 30 * 24 * 3600

    let id: String
    let issued: Int

    static func new(now: Date) -> WebSession {
        let id = WebSecret.randomBytes(16).hexString
        return WebSession(id: id, issued: Int(now.timeIntervalSince1970))
    }

    /// The cookie's value: `<issued>.<id>.<mac>`.
    func cookieValue(secret: WebSecret) -> String {
        "\(issued).\(id).\(secret.sign("session|\(issued)|\(id)"))"
    }

    /// The session a cookie value proves, if it is well made, signed with `secret` and not too old.
    static func verify(_ value: String, secret: WebSecret, now: Date) -> WebSession? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let issued = Int(parts[0]), !parts[1].isEmpty else { return nil }
        let age = now.timeIntervalSince1970 - TimeInterval(issued)
        guard age >= -60, age < lifetime else { return nil }
        guard secret.isSignature(parts[2], of: "session|\(parts[0])|\(parts[1])") else { return nil }
        return WebSession(id: parts[1], issued: issued)
    }

    /// The token every state-changing request of this session must carry.
    func csrfToken(secret: WebSecret) -> String {
        String(secret.sign(csrfMessage).prefix(Self.csrfDigits))
    }

    /// True when `token` is this session's CSRF token.
    func isCSRFToken(_ token: String, secret: WebSecret) -> Bool {
        secret.isSignature(token, of: csrfMessage, digits: Self.csrfDigits)
    }

    private static let csrfDigits = 40
    private var csrfMessage: String { "csrf|\(id)" }
}
