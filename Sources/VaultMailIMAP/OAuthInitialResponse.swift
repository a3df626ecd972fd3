import Foundation

/// The SASL initial responses that carry an OAuth2 access token, written once for IMAP and
/// SMTP. Each is nil when the user name or token holds a character that would end or forge a
/// field (a line break, NUL or ^A), so no caller ever sends one.
enum OAuthInitialResponse {
    /// XOAUTH2 (Google, Microsoft): base64 of `user=U ^A auth=Bearer T ^A ^A`.
    static func xoauth2(user: String, accessToken: String) -> String? {
        guard isSafe(user), isSafe(accessToken) else { return nil }
        return base64("user=\(user)\u{1}auth=Bearer \(accessToken)\u{1}\u{1}")
    }

    /// OAUTHBEARER (RFC 7628): base64 of the GS2 header `n,a=U,` (with `,` and `=` in the user
    /// name escaped as `=2C` and `=3D`) then `^A auth=Bearer T ^A ^A`.
    static func oauthBearer(user: String, accessToken: String) -> String? {
        guard isSafe(user), isSafe(accessToken) else { return nil }
        let escaped = user.replacingOccurrences(of: "=", with: "=3D").replacingOccurrences(of: ",", with: "=2C")
        return base64("n,a=\(escaped),\u{1}auth=Bearer \(accessToken)\u{1}\u{1}")
    }

    /// The client's answer to an OAUTHBEARER error challenge: a single ^A, which makes the
    /// server send its final (failed) result.
    static let oauthBearerAbort = base64("\u{1}")

    /// The text of a server's base64 error challenge (JSON saying why), when it decodes.
    static func challengeDetail(_ base64Text: String) -> String? {
        guard let data = Data(base64Encoded: base64Text.trimmingCharacters(in: .whitespaces)) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    private static func isSafe(_ text: String) -> Bool {
        !text.contains { $0.isNewline || $0 == "\u{1}" || $0 == "\0" }
    }

    private static func base64(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
    }
}

/// The two SASL mechanisms that carry an OAuth2 access token.
enum OAuthMechanism: String, Sendable {
    case xoauth2 = "XOAUTH2"
    case oauthBearer = "OAUTHBEARER"

    func initialResponse(user: String, accessToken: String) -> String? {
        switch self {
        case .xoauth2: OAuthInitialResponse.xoauth2(user: user, accessToken: accessToken)
        case .oauthBearer: OAuthInitialResponse.oauthBearer(user: user, accessToken: accessToken)
        }
    }

    /// What the client answers to an error challenge to end the exchange.
    var abortAnswer: String {
        switch self {
        case .xoauth2: ""
        case .oauthBearer: OAuthInitialResponse.oauthBearerAbort
        }
    }

    /// XOAUTH2 where offered (Google and Microsoft both take it), else OAUTHBEARER; nil when
    /// the server offers neither.
    static func preferred(among offered: Set<String>) -> OAuthMechanism? {
        if offered.contains(OAuthMechanism.xoauth2.rawValue) { return .xoauth2 }
        if offered.contains(OAuthMechanism.oauthBearer.rawValue) { return .oauthBearer }
        return nil
    }
}
