import Foundation
import Testing
import VaultMailCore
import VaultMailOAuth
import VaultMailTesting

/// AC-F-04b: access tokens in memory, refreshed a minute before they expire (by the injected
/// clock), once per account however many connections ask at the same time.
@Suite("OAuth2 access tokens", .serialized)
struct OAuthAccessTokensTests {
    let account = MailFixtures.account(name: "gmail", email: "ada@gmail.com")

    /// A signed-in account: its grant in the keyring, the sign-in's tokens remembered.
    func signedIn(_ server: OAuthTestServer, clock: FixedClock) async throws -> (OAuthAccessTokens, InMemoryCredentialStore, OAuthTokens) {
        let http = URLSessionOAuthHTTPClient()
        let signIn = OAuthSignIn(tokens: OAuthTokenEndpoint(http: http, clock: clock), browser: RedirectFollowingBrowser(),
                                 listener: { try LoopbackRedirectListener() })
        let tokens = try await signIn.run(provider: server.provider(), client: server.client, email: nil)
        let keyring = InMemoryCredentialStore()
        let refreshToken = try #require(tokens.refreshToken)
        try await keyring.storeSecret(OAuthGrant(provider: "gmail", tokenEndpoint: server.tokenEndpoint, client: server.client,
                                                 refreshToken: refreshToken).encoded(), for: account)
        let cache = OAuthAccessTokens(store: keyring, http: http, clock: clock)
        await cache.remember(tokens, for: account)
        return (cache, keyring, tokens)
    }

    @Test("the sign-in's token is used until a minute before it expires, then refreshed")
    func refreshBeforeExpiry() async throws {
        let server = try await OAuthTestServer.start()
        let clock = FixedClock(Date())
        let (cache, _, tokens) = try await signedIn(server, clock: clock)
        #expect(try await cache.accessToken(for: account) == Secret(tokens.accessToken))
        clock.set(tokens.expiresAt.addingTimeInterval(-61))
        #expect(try await cache.accessToken(for: account) == Secret(tokens.accessToken))
        clock.set(tokens.expiresAt.addingTimeInterval(-59))
        let fresh = try await cache.accessToken(for: account)
        #expect(fresh != Secret(tokens.accessToken))
        #expect(try await cache.accessToken(for: account) == fresh)
        try await server.settle()
        #expect(server.refreshCount == 1)
    }

    @Test("many connections asking at once cause one refresh")
    func oneRefreshAtATime() async throws {
        let server = try await OAuthTestServer.start()
        let (cache, _, _) = try await signedIn(server, clock: FixedClock(Date()))
        await cache.refused(account)
        let account = account
        let tokens = try await withThrowingTaskGroup(of: Secret.self) { group in
            for _ in 0..<8 { group.addTask { try await cache.accessToken(for: account) } }
            return try await group.reduce(into: Set<Secret>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        try await server.settle()
        #expect(server.refreshCount == 1)
    }

    @Test("a grant the provider revoked asks the user to sign in again, naming the account and the command")
    func revoked() async throws {
        let server = try await OAuthTestServer.start()
        let (cache, _, _) = try await signedIn(server, clock: FixedClock(Date()))
        try await server.revokeTokens(of: server.user)
        await cache.refused(account)
        do {
            _ = try await cache.accessToken(for: account)
            Issue.record("a revoked grant gave a token")
        } catch let error as OAuthError {
            #expect(error.needsSignIn)
            #expect("\(error)".hasPrefix("Sign in again to gmail:"))
            #expect("\(error)".contains("vaultmail account reauth gmail"))
            #expect("\(error)".contains("Sign in again on its page"), "the web app's button is named too")
        }
    }

    @Test("an account without a grant in the keyring says to sign in again")
    func noGrant() async throws {
        let cache = OAuthAccessTokens(store: InMemoryCredentialStore(), http: URLSessionOAuthHTTPClient())
        await #expect(throws: OAuthError.noGrant(account: "gmail")) { _ = try await cache.accessToken(for: account) }
    }
}
