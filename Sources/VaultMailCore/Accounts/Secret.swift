/// What logs an account in: a password, an OAuth2 access token, or the OAuth2 grant kept in
/// the keyring. One type from the keyring (`CredentialStore`) through the provider
/// (`CredentialProvider`) to the IMAP and SMTP login, so a secret is never a plain `String`
/// on the way: interpolated, printed, dumped or put in an error it reads `<secret>`
/// (AC-F-03, AC-SEC-02). Only `revealed` gives the text, where it goes to the server or the
/// keyring.
public struct Secret: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable {
    /// The text itself: for the server's login and the keyring, nothing else.
    public let revealed: String

    public init(_ text: String) {
        revealed = text
    }

    public init(stringLiteral text: String) {
        revealed = text
    }

    public var isEmpty: Bool { revealed.isEmpty }

    public var description: String { "<secret>" }
    public var debugDescription: String { "<secret>" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
