import Foundation

/// What accounts need of the world outside the store (AC-U-12…14, AC-F-03): trying an
/// account's servers, and the OAuth2 sign-in. The composition root implements it over the mail
/// servers and the providers; what is then stored, changed or removed goes through `Accounts`.
public protocol AccountAdministration: OAuthAccountAdministration {
    /// Tries the account's IMAP and SMTP servers with the secret: connection, certificate, login.
    func check(_ account: Account, secret: AccountSecret) async -> ConnectionCheck
}

/// An account to add by signing in with its provider (Google, Microsoft) in the browser.
public struct OAuthAccountRequest: Sendable, Equatable {
    public var name: String
    public var email: String
    /// `gmail` or `outlook`.
    public var provider: String
    /// The OAuth client to sign in as; nil for the configured one.
    public var clientID: String?

    public init(name: String, email: String, provider: String, clientID: String? = nil) {
        self.name = name
        self.email = email
        self.provider = provider
        self.clientID = clientID
    }
}

/// A sign-in started for the browser: `consentURL` is the provider's page to send it to; the
/// provider sends it back to a listener on 127.0.0.1 whose page leads to the app's `returnTo`
/// with `signin=id`, where `oauthSignInOutcome(id:)` tells how it ended.
public struct OAuthSignInStarted: Sendable, Equatable {
    public var id: String
    public var consentURL: URL

    public init(id: String, consentURL: URL) {
        self.id = id
        self.consentURL = consentURL
    }
}

/// How a sign-in started with `startOAuthSignIn` or `reauthorize` ended. Never carries a code,
/// verifier, token or client secret.
public enum OAuthSignInOutcome: Sendable, Equatable {
    /// The account was added (`reauthorized` false) or signed in again, with what to tell the user.
    case signedIn(accountId: String, reauthorized: Bool, message: String)
    /// Why not, in words with the detail apart (issue 29).
    case failed(PlainProblem)
}

/// The OAuth2 sign-in of accounts in the browser the app already runs in (AC-F-04): the same
/// flow as `vaultmail account add --provider` and `account reauth`, but the browser is sent
/// to the consent page by the app instead of being opened.
public protocol OAuthAccountAdministration: Sendable {
    /// Starts the sign-in for a new account: checks the request, listens on 127.0.0.1 and
    /// returns the consent URL. The account is stored once the sign-in completes.
    func startOAuthSignIn(_ request: OAuthAccountRequest, returnTo: URL) async throws -> OAuthSignInStarted
    /// The sign-in again of an OAuth2 account whose sign-in the provider revoked; its mail stays.
    func reauthorize(accountId: String, returnTo: URL) async throws -> OAuthSignInStarted
    /// How the sign-in `id` ended, waiting up to `wait` for it; nil when it is still running
    /// after that or not known.
    func oauthSignInOutcome(id: String, wait: Duration) async -> OAuthSignInOutcome?
    /// The failures (time-outs) of sign-ins nobody came back from, once each.
    func unseenOAuthFailures() async -> [PlainProblem]
}
