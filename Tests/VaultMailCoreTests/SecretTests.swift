import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// A secret is one type from the keyring to the login, and reads `<secret>` wherever it is
/// written out (AC-F-03, AC-SEC-02, issue 28).
@Suite("Secret: one type from the keyring to the login, never written out (issue 28)")
struct SecretTests {
    @Test("AC-SEC-02: interpolated, described, reflected or dumped, a secret reads <secret>; only `revealed` gives the text")
    func redacted() {
        let secret = Secret("hunter2")
        #expect("\(secret)" == "<secret>")
        #expect(String(reflecting: secret) == "<secret>")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("hunter2"), "\(dumped)")
        #expect(secret.revealed == "hunter2")
        #expect(secret == "hunter2" && secret != Secret("hunter3"))
        #expect(!secret.isEmpty && Secret("").isEmpty)
    }

    @Test("AC-SEC-02: a new account's secret names its kind or its command, never the password, in an error or a log line")
    func accountSecretRedacted() {
        let password = AccountSecret.password("hunter2")
        #expect("\(password)" == "a password")
        #expect(!String(reflecting: password).contains("hunter2"))
        #expect(!"\([password])".contains("hunter2"))
        #expect("\(AccountSecret.passwordCommand("pass show mail"))" == "the password command `pass show mail`")
    }

    @Test("One rule for how an account signs in with its secret: a password or password command by password, a token command by OAuth2")
    func signingIn() {
        var account = MailFixtures.account()
        account.credentialCommand = "old"
        let byPassword = account.signingIn(with: .password("x"))
        #expect(byPassword.authMethod == .password && byPassword.credentialCommand == nil)
        let byCommand = account.signingIn(with: .passwordCommand("pass show mail"))
        #expect(byCommand.authMethod == .password && byCommand.credentialCommand == "pass show mail")
        let byToken = account.signingIn(with: .oauth2TokenCommand("oama access ada"))
        #expect(byToken.authMethod == .oauth2 && byToken.credentialCommand == "oama access ada")
    }

    @Test("The keyring gives back the type it was given; an OAuth2 grant is a secret too")
    func keyring() async throws {
        let keyring = InMemoryCredentialStore()
        let account = MailFixtures.account()
        try await keyring.storeSecret("pa55", for: account)
        #expect(try await keyring.secret(for: account) == Secret("pa55"))
        let grant = OAuthGrant(provider: "gmail", tokenEndpoint: URL(string: "https://oauth2.example.com/token")!,
                               client: OAuthClient(id: "client"), refreshToken: "refresh-me")
        #expect("\(grant.encoded())" == "<secret>")
        #expect(OAuthGrant.decode(grant.encoded()) == grant)
    }
}
