import Foundation
import VaultMailApp
import VaultMailCore
import VaultMailOAuth
import VaultMailTesting

/// An account signed in with OAuth2 against a provider of our own: the OAuth test server,
/// Dovecot checking every XOAUTH2 token against its introspection endpoint, the SMTP test
/// server doing the same, and a command session whose keyring is in memory. The sign-in is the
/// real flow through the loopback redirect.
@MainActor
final class OAuthAccountFixture {
    let oauth: OAuthTestServer
    let dovecot: DovecotServer
    let smtp: SMTPTestServer
    let keyring = InMemoryCredentialStore()
    let home: URL
    let session: CommandSession
    private(set) var account: Account

    init(accessLifetime: Int = 3600) async throws {
        oauth = try await OAuthTestServer.start(user: "ada", accessLifetime: accessLifetime)
        dovecot = try await DovecotServer.start(users: ["ada": "not-the-way-in"], oauth2Introspection: oauth.introspectionEndpoint)
        smtp = try await SMTPTestServer.start(user: "ada", introspection: oauth.introspectionEndpoint, certificates: dovecot.certificates)
        home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-oauth-\(UUID().uuidString.prefix(8))")
        session = try CommandSession(home: VaultMailHome(explicit: home.path), credentials: keyring)
        account = Account(name: "gmail", email: "ada@gmail.com", imapHost: dovecot.host, imapPort: dovecot.imapsPort,
                          smtpHost: smtp.host, smtpPort: smtp.tlsPort, security: .tls, username: "ada", authMethod: .oauth2,
                          caFile: dovecot.caFile)
        try dovecot.deliver(Self.message(subject: "Welcome to OAuth"), to: "ada")
        try await signIn()
        try await session.dependencies.accounts.addAccount(account)
    }

    deinit {
        try? FileManager.default.removeItem(at: home)
    }

    /// The whole sign-in, as `account add` and `account reauth` do it: the grant to the keyring,
    /// the access token to memory.
    func signIn() async throws {
        let tokens = try await OAuthSignIn(tokens: OAuthTokenEndpoint(http: URLSessionOAuthHTTPClient()), browser: RedirectFollowingBrowser(),
                                           listener: { try LoopbackRedirectListener() })
            .run(provider: oauth.provider(), client: oauth.client, email: nil)
        let grant = OAuthGrant(provider: "gmail", tokenEndpoint: oauth.tokenEndpoint, client: oauth.client,
                               refreshToken: try requireValue(tokens.refreshToken))
        try await keyring.storeSecret(grant.encoded(), for: account)
        await session.accountCredentials.tokens.remember(tokens, for: account)
    }

    /// Syncs the account on a new connection (the pooled one is closed first, so the token is used).
    @discardableResult
    func syncOnNewConnection() async throws -> [Email] {
        await session.services.connections.closeAll()
        return try await session.services.sync.syncAccount(accountId: account.id)
    }

    /// A message dated 26 Nov 2026 09:00 UTC, as Grace wrote it to ada@gmail.com.
    static func message(subject: String) -> Data {
        TestMessage(to: "Ada <ada@gmail.com>", subject: subject, date: Date(timeIntervalSince1970: 1_795_683_600), contentType: nil).data
    }
}

struct MissingValue: Error {}

func requireValue<T>(_ value: T?) throws -> T {
    guard let value else { throw MissingValue() }
    return value
}
