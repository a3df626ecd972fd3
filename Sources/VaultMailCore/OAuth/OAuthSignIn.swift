import Foundation

/// The sign-in a desktop mail client does (AC-F-04): authorization code with PKCE S256
/// (RFC 7636) and a loopback redirect (RFC 8252). It listens on 127.0.0.1, opens the
/// provider's consent page in the browser (and shows its URL), checks `state`, exchanges the
/// code at the token endpoint and closes the listener, also when anything fails.
public struct OAuthSignIn: Sendable {
    let tokens: OAuthTokenEndpoint
    let browser: any BrowserLauncher
    let makeListener: @Sendable () async throws -> any AuthorizationRedirectListener
    let timeout: Duration

    public init(tokens: OAuthTokenEndpoint, browser: any BrowserLauncher,
                listener: @escaping @Sendable () async throws -> any AuthorizationRedirectListener,
                timeout: Duration = .seconds(300)) {
        self.tokens = tokens
        self.browser = browser
        makeListener = listener
        self.timeout = timeout
    }

    /// Runs the flow for `email` and returns the tokens. `show` gets the consent URL before
    /// the browser opens (to print it); a browser that cannot be opened is not an error when
    /// the user opens the URL by hand.
    public func run(provider: OAuthProvider, client: OAuthClient, email: String?,
                    show: @Sendable (URL) async -> Void = { _ in }) async throws -> OAuthTokens {
        let pkce = PKCE()
        let state = PKCE.randomToken(bytes: 16)
        let listener = try await makeListener()
        do {
            let url = Self.consentURL(provider: provider, client: client, redirectURI: listener.redirectURI,
                                      challenge: pkce.challenge, state: state, email: email)
            // Listening before the browser opens: a browser that follows the consent at once
            // finds the listener waiting.
            async let redirect = listener.waitForRedirect(timeout: timeout)
            await show(url)
            try? await browser.open(url)
            let query: [String: String]
            do {
                query = try await redirect
            } catch OAuthError.timedOut {
                throw OAuthError.timedOut(provider: provider.name, after: timeout)
            }
            await listener.close()
            guard query["state"] == state else { throw OAuthError.stateMismatch }
            if let error = query["error"] { throw OAuthError.denied(error: error, description: query["error_description"]) }
            guard let code = query["code"], !code.isEmpty else { throw OAuthError.missingCode }
            return try await tokens.exchange(code: code, verifier: pkce.verifier, redirectURI: listener.redirectURI,
                                             client: client, at: provider.tokenEndpoint)
        } catch {
            await listener.close()
            throw error
        }
    }

    /// The provider's consent page for this sign-in.
    public static func consentURL(provider: OAuthProvider, client: OAuthClient, redirectURI: URL, challenge: String,
                                  state: String, email: String?) -> URL {
        var parts = URLComponents(url: provider.authorizationEndpoint, resolvingAgainstBaseURL: false) ?? URLComponents()
        var items = parts.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: client.id),
            URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
            URLQueryItem(name: "scope", value: provider.scopes.joined(separator: " ")),
            URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "code_challenge", value: challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        if let email { items.append(URLQueryItem(name: "login_hint", value: email)) }
        items += provider.authorizationParameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        parts.queryItems = items
        // `+` and `/` in values are left alone by URLComponents; a form decoder would misread `+`.
        parts.percentEncodedQuery = parts.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return parts.url ?? provider.authorizationEndpoint
    }
}
