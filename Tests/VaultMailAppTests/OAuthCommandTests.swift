import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailOAuth
import VaultMailTesting

/// `vaultmail account add --provider` and `vaultmail account reauth` (issue 19), against the
/// OAuth test server, Dovecot and the SMTP test server on loopback; the browser is an HTTP
/// client following the consent redirect, the keyring is in memory.
@MainActor
@Suite("OAuth2 account commands: add --provider, reauth (issue 19)", .serialized)
struct OAuthCommandTests {
    let email = "ada@gmail.com"

    func world() async throws -> (OAuthTestServer, DovecotServer, SMTPTestServer) {
        let oauth = try await OAuthTestServer.start(clientSecret: "packager-secret", user: email)
        let dovecot = try await DovecotServer.start(users: [email: "not-the-way-in"], oauth2Introspection: oauth.introspectionEndpoint)
        let smtp = try await SMTPTestServer.start(user: email, introspection: oauth.introspectionEndpoint, certificates: dovecot.certificates)
        return (oauth, dovecot, smtp)
    }

    func session(_ oauth: OAuthTestServer, keyring: InMemoryCredentialStore, clientSecret: Bool = true) throws -> (CommandSession, URL) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-oauth-cli-\(UUID().uuidString.prefix(8))")
        let session = try CommandSession(home: VaultMailHome(explicit: home.path), credentials: keyring)
        session.oauthBrowser = RedirectFollowingBrowser()
        var environment = [
            "VAULTMAIL_OAUTH_AUTHORIZATION_URL": oauth.authorizationEndpoint.absoluteString,
            "VAULTMAIL_OAUTH_TOKEN_URL": oauth.tokenEndpoint.absoluteString,
            "VAULTMAIL_OAUTH_REVOCATION_URL": oauth.revocationEndpoint.absoluteString,
        ]
        if clientSecret { environment["VAULTMAIL_GMAIL_CLIENT_SECRET"] = "packager-secret" }
        session.oauthConfiguration = OAuthConfiguration(environment: environment, files: [])
        return (session, home)
    }

    func new(_ dovecot: DovecotServer, _ smtp: SMTPTestServer, clientID: String? = "vaultmail-test-client") -> CommandSession.NewOAuthAccount {
        var new = CommandSession.NewOAuthAccount(name: "gmail", email: email, provider: "gmail", clientID: clientID)
        new.imap = "\(dovecot.host):\(dovecot.imapsPort)"
        new.smtp = "\(smtp.host):\(smtp.tlsPort)"
        new.caFile = dovecot.caFile
        return new
    }

    @Test("AC-F-04: account add --provider signs in through the browser, keeps the sign-in in the keyring only, and syncs; reauth after a revocation keeps the mail")
    func addSyncRevokeReauth() async throws {
        let (oauth, dovecot, smtp) = try await world()
        try dovecot.deliver(OAuthAccountFixture.message(subject: "First"), to: email)
        let keyring = InMemoryCredentialStore()
        let (session, home) = try session(oauth, keyring: keyring)
        defer { try? FileManager.default.removeItem(at: home) }
        let shown = LockedBox<[String]>([])
        let added = try await session.addOAuthAccount(new(dovecot, smtp)) { line in shown.set(shown.value + [line]) }
        #expect(added.contains("Signed in with Google and added account 'gmail'"))
        #expect(shown.value.first?.contains("http://127.0.0.1:\(oauth.port)/authorize?") == true)

        let account = try await session.account(named: "gmail")
        #expect(account.authMethod == .oauth2 && account.credentialCommand == nil)
        let grant = try #require(OAuthGrant.decode(Secret(await keyring.secrets[account.id] ?? "")))
        #expect(grant.provider == "gmail" && grant.client == OAuthClient(id: "vaultmail-test-client", secret: "packager-secret"))

        #expect(try await session.sync(["gmail"]) { _ in }.contains("gmail: 1 new message"))

        try await oauth.revokeTokens(of: email)
        await session.services.connections.closeAll()
        do {
            _ = try await session.sync(["gmail"]) { _ in }
            Issue.record("a revoked sign-in synced")
        } catch {
            #expect("\(error)".contains("cannot sync account 'gmail': Sign in again to gmail"))
            #expect("\(error)".contains("run `vaultmail account reauth gmail`"))
        }

        let reauthorized = try await session.reauthAccount(named: "gmail") { _ in }
        #expect(reauthorized.contains("all its mail stayed on this computer"))
        try dovecot.deliver(OAuthAccountFixture.message(subject: "Second"), to: email)
        #expect(try await session.sync(["gmail"]) { _ in }.contains("gmail: 1 new message"))
        #expect(try await session.dependencies.emails.getInboxUnreadCount() == 2)

        // Nothing secret in the store: no refresh or access token, no client secret.
        let tokens = try await oauth.issuedTokens()
        let stored = FileManager.default.contents(atPath: session.home.databasePath) ?? Data()
        for secret in tokens + ["packager-secret"] {
            #expect(stored.range(of: Data(secret.utf8)) == nil)
        }
    }

    @Test("account remove deletes the sign-in from the keyring and revokes it at the provider")
    func removeRevokes() async throws {
        let (oauth, dovecot, smtp) = try await world()
        let keyring = InMemoryCredentialStore()
        let (session, home) = try session(oauth, keyring: keyring)
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try await session.addOAuthAccount(new(dovecot, smtp)) { _ in }
        let grant = try #require(OAuthGrant.decode(Secret(await keyring.secrets.values.first ?? "")))
        let removed = try await session.removeAccount(named: "gmail")
        #expect(removed.contains("Its sign-in was removed from the keyring. Its sign-in was revoked at Google."))
        #expect(await keyring.secrets.isEmpty)
        // The refresh token no longer works at the provider.
        await #expect(throws: OAuthError.self) {
            _ = try await OAuthTokenEndpoint(http: URLSessionOAuthHTTPClient()).refresh(grant.refreshToken, client: grant.client, at: oauth.tokenEndpoint)
        }
    }

    @Test("without a client ID, add --provider says where to give one and stores nothing")
    func noClientID() async throws {
        let (oauth, dovecot, smtp) = try await world()
        let keyring = InMemoryCredentialStore()
        let (session, home) = try session(oauth, keyring: keyring)
        defer { try? FileManager.default.removeItem(at: home) }
        do {
            _ = try await session.addOAuthAccount(new(dovecot, smtp, clientID: nil)) { _ in }
            Issue.record("an account was added without a client ID")
        } catch let error as CommandError {
            #expect(error.isUsage)
            #expect("\(error)".contains("--oauth-client-id") && "\(error)".contains("docs/oauth.md"))
        }
        #expect(try await session.dependencies.accounts.getAccounts().isEmpty)
        #expect(await keyring.secrets.isEmpty)
    }

    @Test("a sign-in the provider refuses adds no account and keeps nothing")
    func refusedSignIn() async throws {
        let (oauth, dovecot, smtp) = try await world()
        try await oauth.setDeniesConsent(true)
        let keyring = InMemoryCredentialStore()
        let (session, home) = try session(oauth, keyring: keyring)
        defer { try? FileManager.default.removeItem(at: home) }
        do {
            _ = try await session.addOAuthAccount(new(dovecot, smtp)) { _ in }
            Issue.record("a refused sign-in added an account")
        } catch {
            #expect("\(error)".contains("cannot sign in to 'gmail': the sign-in was refused: access_denied"))
        }
        #expect(try await session.dependencies.accounts.getAccounts().isEmpty)
        #expect(await keyring.secrets.isEmpty)
    }

    @Test("reauth of an account that uses a password says there is nothing to do")
    func reauthPasswordAccount() async throws {
        let oauth = try await OAuthTestServer.start()
        let (session, home) = try session(oauth, keyring: InMemoryCredentialStore())
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try await session.addAccount(.init(name: "work", email: "ada@example.com", imap: "127.0.0.1:1143", smtp: "127.0.0.1:1025",
                                               credential: .passwordCommand("echo pw")))
        await #expect(throws: CommandError.self) { _ = try await session.reauthAccount(named: "work") { _ in } }
    }
}
