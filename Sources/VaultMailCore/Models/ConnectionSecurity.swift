/// How a connection to a mail server is protected.
public enum ConnectionSecurity: String, Sendable, Codable, CaseIterable, Hashable {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    case tls
    /// A plain connection upgraded with STARTTLS before any credential is sent.
    case starttls
    /// No encryption. Only ever allowed to a loopback address.
    case plain

    /// True for this computer's own addresses, the only ones `plain` may connect to.
    public static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "::1", "localhost"].contains(host.lowercased()) || host.hasPrefix("127.")
    }
}

/// How the account proves who it is. The secret itself never lives in the account record.
public enum AuthMethod: String, Sendable, Codable, CaseIterable, Hashable {
    /// IMAP LOGIN / SMTP AUTH PLAIN or LOGIN with a password.
    case password
    /// SASL XOAUTH2 with an access token.
    case oauth2
}
