import Foundation

/// The loopback end of an OAuth2 sign-in (RFC 8252): listens on 127.0.0.1 on a port of its
/// own for the one request the browser makes when the provider redirects back.
public protocol AuthorizationRedirectListener: Sendable {
    /// `http://127.0.0.1:PORT/`: the redirect URI the provider sends the browser to.
    var redirectURI: URL { get }
    /// The query of the first request to the redirect URI (`code`, `state` or `error`), which
    /// is answered with a page telling the user to go back to VaultMail. Throws
    /// `OAuthError.timedOut` when none comes within `timeout`.
    func waitForRedirect(timeout: Duration) async throws -> [String: String]
    /// Stops listening (also when nothing came). Safe to call twice.
    func close() async
}

/// Opens a URL in the user's browser (`xdg-open`).
public protocol BrowserLauncher: Sendable {
    func open(_ url: URL) async throws
}
