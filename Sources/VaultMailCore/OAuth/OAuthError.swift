import Foundation

/// Why an OAuth2 sign-in or token refresh failed, in words the user can act on. Never carries
/// a token, code, verifier or client secret.
public enum OAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nobody finished the consent page in time.
    case timedOut(provider: String, after: Duration)
    /// The redirect came back with another `state`: not the sign-in VaultMail started.
    case stateMismatch
    /// The provider (or the user) refused: `error` and its description from the redirect.
    case denied(error: String, description: String?)
    /// The redirect had no code.
    case missingCode
    /// The token endpoint refused (`error` from its JSON, e.g. invalid_grant, invalid_client).
    case tokenRefused(endpoint: String, status: Int, error: String, description: String?)
    /// The token endpoint answered something that is not a token response.
    case malformedResponse(endpoint: String, status: Int)
    /// The token endpoint could not be reached.
    case unreachable(endpoint: String, reason: String)
    /// The refresh token no longer works (revoked, expired, password changed).
    case signInAgain(account: String, reason: String)
    /// No client ID is configured for the provider.
    case noClientID(provider: String)
    /// The account has no grant in the keyring.
    case noGrant(account: String)

    public var description: String {
        switch self {
        case .timedOut(let provider, let after):
            "the sign-in with \(provider) was not finished within \(Self.words(after)); run the command again and complete the page in your browser"
        case .stateMismatch:
            "the browser came back from a sign-in VaultMail did not start (its state does not match); nothing was changed, run the command again"
        case .denied(let error, let description):
            "the sign-in was refused: \(error)\(description.map { " (\($0))" } ?? "")"
        case .missingCode:
            "the provider redirected back without an authorization code; run the command again"
        case .tokenRefused(let endpoint, let status, let error, let description):
            "\(endpoint) refused the request (HTTP \(status), \(error)\(description.map { ": \($0)" } ?? ""))"
        case .malformedResponse(let endpoint, let status):
            "\(endpoint) answered HTTP \(status) without a usable token"
        case .unreachable(let endpoint, let reason):
            "cannot reach \(endpoint): \(reason)"
        case .signInAgain(let account, let reason):
            "Sign in again to \(account): the provider no longer accepts VaultMail's sign-in (\(reason)); press Sign in again on its page in VaultMail's settings, or run `vaultmail account reauth \(account)`"
        case .noClientID(let provider):
            "no OAuth client ID for \(provider): give --oauth-client-id, or set it in the environment or the configuration (docs/oauth.md says how to register one)"
        case .noGrant(let account):
            "account '\(account)' has no sign-in in the keyring; run `vaultmail account reauth \(account)`"
        }
    }

    /// The user must sign in again (the alert says "Sign in again to NAME").
    public var needsSignIn: Bool {
        switch self {
        case .signInAgain, .noGrant: true
        default: false
        }
    }

    /// The provider's token endpoint is down, not the credential refused (issue 34): it could
    /// not be reached, timed out, or answered a server error (5xx), "too many requests" (429)
    /// or `temporarily_unavailable` / `server_error`. An outage passes by itself: it gets the
    /// grace and the words of an unreachable mail server, never "check your credential".
    public var isOutage: Bool {
        switch self {
        case .unreachable: true
        case .malformedResponse(_, let status): status >= 500 || status == 429 || status == 408
        case .tokenRefused(_, let status, let error, _):
            status >= 500 || status == 429 || ["temporarily_unavailable", "server_error"].contains(error)
        default: false
        }
    }

    /// The host of the endpoint an error names ("oauth2.googleapis.com"), for the words.
    public var endpointHost: String? {
        switch self {
        case .unreachable(let endpoint, _), .malformedResponse(let endpoint, _), .tokenRefused(let endpoint, _, _, _):
            URL(string: endpoint)?.host
        default: nil
        }
    }

    static func words(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        if seconds >= 60, seconds % 60 == 0 { return seconds == 60 ? "1 minute" : "\(seconds / 60) minutes" }
        return seconds == 1 ? "1 second" : "\(seconds) seconds"
    }
}
