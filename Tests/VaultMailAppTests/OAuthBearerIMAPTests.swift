import Foundation
import Testing
@testable import VaultMailApp
import VaultMailCore
@testable import VaultMailIMAP
import VaultMailTesting

/// Issue 19: IMAP with OAUTHBEARER (RFC 7628), which libetpan lacks and VaultMail speaks itself,
/// against Dovecot's oauth2 passdb checking the token with the provider's introspection.
@MainActor
@Suite("OAuth2 on IMAP: OAUTHBEARER (issue 19)", .serialized)
struct OAuthBearerIMAPTests {
    func connect(_ fixture: OAuthAccountFixture) async throws -> IMAPConnection {
        try await IMAPConnection.connect(to: IMAPEndpoint(account: fixture.account))
    }

    @Test("AC-F-04: OAUTHBEARER logs in with the access token and the session works; a revoked token is refused with the server's reason and never shown")
    func oauthBearerLogin() async throws {
        let fixture = try await OAuthAccountFixture()
        let token = try await fixture.session.accountCredentials.tokens.accessToken(for: fixture.account)

        let imap = try await connect(fixture)
        #expect(await imap.capabilities.authMechanisms.contains("OAUTHBEARER"))
        try await imap.authenticateOAuthBearer(user: "ada", accessToken: token)
        #expect(await imap.isAuthenticated)
        // libetpan knows the session is logged in: its own commands work after our exchange.
        let folders = try await imap.listFolders()
        #expect(folders.contains { $0.path == "INBOX" })
        try await waitUntil("Dovecot logs the OAUTHBEARER login", timeout: .seconds(30)) {
            fixture.dovecot.log().contains("Login: user=<ada>, method=OAUTHBEARER")
        }

        try await fixture.oauth.revokeTokens(of: "ada")
        let other = try await connect(fixture)
        let error = try await #require(throws: IMAPError.self) {
            try await other.authenticateOAuthBearer(user: "ada", accessToken: token)
        }
        #expect(error.kind == .authenticationFailed)
        #expect(error.description.contains("log in (OAUTHBEARER) to") && error.description.contains("as ada"), "\(error)")
        #expect(!error.description.contains(token.revealed) && !String(reflecting: error).contains(token.revealed))
        // The refused exchange ended cleanly: the connection still answers.
        #expect(await other.isConnected)
        _ = try await other.refreshCapabilities()
    }

    @Test("AC-F-04: Test connection signs a token command's account in with OAuth2 on IMAP and SMTP, as sync and sending do; the token is in no step")
    func checkWithTokenCommand() async throws {
        let fixture = try await OAuthAccountFixture()
        let token = try await fixture.session.accountCredentials.tokens.accessToken(for: fixture.account)
        // The command reads the token from a file: it is on no command line.
        let file = fixture.home.appendingPathComponent("token")
        try Data(token.revealed.utf8).write(to: file)
        var candidate = fixture.account
        candidate.name = "with-command"
        candidate.authMethod = .password
        let administrator = AccountAdministrator(accounts: fixture.session.accountService, credentials: fixture.keyring)
        let check = await administrator.check(candidate, secret: .oauth2TokenCommand("cat '\(file.path)'"))
        #expect(check.steps.count == 4 && check.steps.allSatisfy(\.passed), "\(check.steps)")
        #expect(!"\(check.steps)".contains(token.revealed))
        try await waitUntil("Dovecot logs an OAuth2 login of the check", timeout: .seconds(30)) {
            fixture.dovecot.log().contains("Login: user=<ada>, method=XOAUTH2")
        }
    }

    @Test("the initial responses: XOAUTH2 and OAUTHBEARER as their specifications write them, with the user name escaped and control characters refused")
    func initialResponses() throws {
        func decoded(_ base64: String?) throws -> String {
            let text = try #require(base64)
            return String(decoding: try #require(Data(base64Encoded: text)), as: UTF8.self)
        }
        #expect(try decoded(OAuthInitialResponse.xoauth2(user: "ada@gmail.com", accessToken: "tok"))
                == "user=ada@gmail.com\u{1}auth=Bearer tok\u{1}\u{1}")
        #expect(try decoded(OAuthInitialResponse.oauthBearer(user: "a,b=c", accessToken: "tok"))
                == "n,a=a=2Cb=3Dc,\u{1}auth=Bearer tok\u{1}\u{1}")
        #expect(OAuthInitialResponse.oauthBearer(user: "ada", accessToken: "tok\r\nA1 LOGOUT") == nil)
        #expect(OAuthInitialResponse.xoauth2(user: "ada\u{1}auth=Bearer x", accessToken: "tok") == nil)
        #expect(OAuthMechanism.preferred(among: ["PLAIN", "OAUTHBEARER"]) == .oauthBearer)
        #expect(OAuthMechanism.preferred(among: ["XOAUTH2", "OAUTHBEARER"]) == .xoauth2)
        #expect(OAuthMechanism.preferred(among: ["PLAIN"]) == nil)
    }

    @Test("a removed account's access token leaves the daemon's memory with it")
    func removedAccountForgotten() async throws {
        let fixture = try await OAuthAccountFixture()
        let tokens = fixture.session.accountCredentials.tokens
        _ = try await tokens.accessToken(for: fixture.account)
        #expect(await tokens.holdsToken(accountId: fixture.account.id))
        let accounts = Accounts(database: fixture.session.dependencies.database, credentials: fixture.keyring,
                                settings: fixture.session.dependencies.settings, accessTokens: tokens)
        _ = try await accounts.remove(accountId: fixture.account.id)
        #expect(await !tokens.holdsToken(accountId: fixture.account.id))
        #expect(await fixture.keyring.secrets[fixture.account.id] == nil)
    }
}
