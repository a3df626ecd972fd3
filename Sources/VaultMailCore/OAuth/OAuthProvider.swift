import Foundation

/// A provider whose accounts sign in with OAuth2 in VaultMail itself (AC-F-04): its
/// authorization, token and revocation endpoints, the scopes IMAP and SMTP need, and its mail
/// servers. The endpoints are the provider's own; tests point them at a server on loopback.
public struct OAuthProvider: Sendable, Hashable, Codable {
    /// The name used on the command line (`--provider gmail`).
    public var id: String
    public var name: String
    public var authorizationEndpoint: URL
    public var tokenEndpoint: URL
    /// Where a refresh token is revoked (RFC 7009), when the provider has such an endpoint.
    public var revocationEndpoint: URL?
    public var scopes: [String]
    /// Parameters the provider wants on the consent URL besides the standard ones (Google
    /// gives a refresh token only with `access_type=offline`).
    public var authorizationParameters: [String: String]
    public var imapHost: String
    public var imapPort: Int
    public var smtpHost: String
    public var smtpPort: Int
    /// Where to register a client ID (the docs say how).
    public var consoleURL: String

    public init(id: String, name: String, authorizationEndpoint: URL, tokenEndpoint: URL, revocationEndpoint: URL?,
                scopes: [String], authorizationParameters: [String: String] = [:], imapHost: String, imapPort: Int,
                smtpHost: String, smtpPort: Int, consoleURL: String) {
        self.id = id
        self.name = name
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.scopes = scopes
        self.authorizationParameters = authorizationParameters
        self.imapHost = imapHost
        self.imapPort = imapPort
        self.smtpHost = smtpHost
        self.smtpPort = smtpPort
        self.consoleURL = consoleURL
    }

    /// Gmail and Google Workspace: one scope covers IMAP and SMTP.
    public static let google = OAuthProvider(
        id: "gmail", name: "Google",
        authorizationEndpoint: URL(string: "https://accounts.google.com/o/oauth2/v2/auth")!,
        tokenEndpoint: URL(string: "https://oauth2.googleapis.com/token")!,
        revocationEndpoint: URL(string: "https://oauth2.googleapis.com/revoke")!,
        scopes: ["https://mail.google.com/"],
        authorizationParameters: ["access_type": "offline", "prompt": "consent"],
        imapHost: "imap.gmail.com", imapPort: 993, smtpHost: "smtp.gmail.com", smtpPort: 465,
        consoleURL: "https://console.cloud.google.com/apis/credentials")

    /// Outlook.com and Microsoft 365 (the `common` tenant): IMAP and SMTP, plus a refresh token.
    public static let microsoft = OAuthProvider(
        id: "outlook", name: "Microsoft",
        authorizationEndpoint: URL(string: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize")!,
        tokenEndpoint: URL(string: "https://login.microsoftonline.com/common/oauth2/v2.0/token")!,
        revocationEndpoint: nil,
        scopes: ["https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send", "offline_access"],
        imapHost: "outlook.office365.com", imapPort: 993, smtpHost: "smtp.office365.com", smtpPort: 587,
        consoleURL: "https://entra.microsoft.com/#view/Microsoft_AAD_RegisteredApps/ApplicationsListBlade")

    public static let presets: [OAuthProvider] = [.google, .microsoft]

    /// The preset named `id` (`gmail`, `outlook`; `google` and `microsoft` too).
    public static func preset(_ id: String) -> OAuthProvider? {
        switch id.lowercased() {
        case "gmail", "google": .google
        case "outlook", "microsoft", "office365", "hotmail": .microsoft
        default: nil
        }
    }

    /// The same provider with other endpoints (a provider of one's own, or a test server).
    public func with(authorizationEndpoint: URL? = nil, tokenEndpoint: URL? = nil, revocationEndpoint: URL? = nil) -> OAuthProvider {
        var copy = self
        if let authorizationEndpoint { copy.authorizationEndpoint = authorizationEndpoint }
        if let tokenEndpoint { copy.tokenEndpoint = tokenEndpoint }
        if let revocationEndpoint { copy.revocationEndpoint = revocationEndpoint }
        return copy
    }
}
