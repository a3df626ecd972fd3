import Foundation
import Testing
import VaultMailCore
import VaultMailOAuth
import VaultMailTesting

/// AC-F-04 against a provider of our own on loopback: the real listener, the real HTTP client,
/// and an HTTP client following the consent redirect in place of the browser.
@Suite("OAuth2 sign-in", .serialized)
struct OAuthSignInTests {
    static func signIn(browser: any BrowserLauncher, timeout: Duration = .seconds(30),
                       opened: LockedBox<LoopbackRedirectListener?> = LockedBox(nil)) -> OAuthSignIn {
        OAuthSignIn(tokens: OAuthTokenEndpoint(http: URLSessionOAuthHTTPClient()), browser: browser, listener: {
            let listener = try LoopbackRedirectListener()
            opened.set(listener)
            return listener
        }, timeout: timeout)
    }

    @Test("AC-F-04: the full sign-in through the loopback redirect gives an access and a refresh token; the listener is closed after")
    func fullSignIn() async throws {
        let server = try await OAuthTestServer.start(clientSecret: "packager-secret")
        let browser = RedirectFollowingBrowser()
        let listener = LockedBox<LoopbackRedirectListener?>(nil)
        let shown = LockedBox<URL?>(nil)
        let tokens = try await Self.signIn(browser: browser, opened: listener)
            .run(provider: server.provider(), client: server.client, email: "ada@gmail.com") { shown.set($0) }
        #expect(tokens.accessToken.hasPrefix("at-"))
        #expect(tokens.refreshToken?.hasPrefix("rt-") == true)
        #expect(tokens.expiresAt > Date())
        let opened = try #require(await browser.opened.first)
        #expect(shown.value == opened)
        #expect(opened.absoluteString.contains("code_challenge_method=S256"))
        #expect(await browser.lastStatus == 200)
        #expect(await browser.lastPage?.contains("You can close this tab") == true)
        try await server.settle()
        #expect(server.tokenRequests.map(\.ok) == [true])
        #expect(server.events.contains { $0["event"] as? String == "authorize" && $0["login_hint"] as? String == "ada@gmail.com" })
        // The listener is gone: its port no longer answers.
        let port = try #require(listener.value?.port)
        await #expect(throws: (any Error).self) { _ = try await HTTPTestClient.request(port: port, path: "/") }
        // No code, verifier or token in what the consent URL carried.
        #expect(!opened.absoluteString.contains(tokens.accessToken))
    }

    @Test("AC-F-04: a redirect with another state is refused and no code is exchanged")
    func wrongState() async throws {
        let server = try await OAuthTestServer.start()
        try await server.setAnswersWithWrongState(true)
        await #expect(throws: OAuthError.stateMismatch) {
            _ = try await Self.signIn(browser: RedirectFollowingBrowser()).run(provider: server.provider(), client: server.client, email: nil)
        }
        try await server.settle()
        #expect(server.tokenRequests.isEmpty)
    }

    @Test("RFC 7636: the token endpoint refuses a code with the wrong PKCE verifier, and takes the right one")
    func wrongVerifier() async throws {
        let server = try await OAuthTestServer.start()
        let pkce = PKCE()
        let redirect = URL(string: "http://127.0.0.1:9/")!
        let consent = OAuthSignIn.consentURL(provider: server.provider(), client: server.client, redirectURI: redirect,
                                             challenge: pkce.challenge, state: "s", email: nil)
        func code() async throws -> String {
            let reply = try await HTTPTestClient.request(port: server.port, path: consent.path + "?" + (consent.query ?? ""))
            let location = try #require(reply.headers["location"].flatMap { URLComponents(string: $0) })
            return try #require(location.queryItems?.first { $0.name == "code" }?.value)
        }
        let endpoint = OAuthTokenEndpoint(http: URLSessionOAuthHTTPClient())
        do {
            _ = try await endpoint.exchange(code: try await code(), verifier: PKCE().verifier, redirectURI: redirect,
                                            client: server.client, at: server.tokenEndpoint)
            Issue.record("a wrong verifier was accepted")
        } catch let OAuthError.tokenRefused(_, status, error, description) {
            #expect(status == 400 && error == "invalid_grant")
            #expect(description == "PKCE verification failed")
        }
        let tokens = try await endpoint.exchange(code: try await code(), verifier: pkce.verifier, redirectURI: redirect,
                                                 client: server.client, at: server.tokenEndpoint)
        #expect(tokens.refreshToken != nil)
    }

    @Test("a consent nobody finishes ends after the time limit with a clear message, and frees the port")
    func timeLimit() async throws {
        let server = try await OAuthTestServer.start()
        let listener = LockedBox<LoopbackRedirectListener?>(nil)
        do {
            _ = try await Self.signIn(browser: RedirectFollowingBrowser(follows: false), timeout: .seconds(1), opened: listener)
                .run(provider: server.provider(), client: server.client, email: nil)
            Issue.record("the sign-in did not time out")
        } catch let error as OAuthError {
            #expect(error == .timedOut(provider: "Google", after: .seconds(1)))
            #expect("\(error)".contains("was not finished within 1 second"))
        }
        let port = try #require(listener.value?.port)
        await #expect(throws: (any Error).self) { _ = try await HTTPTestClient.request(port: port, path: "/") }
    }

    @Test("a refused consent says what the provider said")
    func denied() async throws {
        let server = try await OAuthTestServer.start()
        try await server.setDeniesConsent(true)
        await #expect(throws: OAuthError.denied(error: "access_denied", description: "The user said no")) {
            _ = try await Self.signIn(browser: RedirectFollowingBrowser()).run(provider: server.provider(), client: server.client, email: nil)
        }
    }

    @Test("a wrong client secret is refused by the token endpoint without the secret in the message")
    func wrongClientSecret() async throws {
        let server = try await OAuthTestServer.start(clientSecret: "right-secret")
        do {
            _ = try await Self.signIn(browser: RedirectFollowingBrowser())
                .run(provider: server.provider(), client: OAuthClient(id: server.clientID, secret: "wrong-secret"), email: nil)
            Issue.record("a wrong client secret was accepted")
        } catch {
            #expect("\(error)".contains("invalid_client"))
            #expect(!"\(error)".contains("wrong-secret"))
        }
    }
}
