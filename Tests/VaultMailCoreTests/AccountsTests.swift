import Foundation
import Synchronization
import Testing
import VaultMailCore
import VaultMailTesting

/// Core's `Accounts` service, without any door: how an account is named, stored and removed
/// whichever door (the tool, the web app) asks (issue 28, AC-SEC-03).
@MainActor
@Suite("Accounts: one name rule, adding with the keyring, removing everything, the same for every door (issue 28)")
struct AccountsTests {
    let repository = InMemoryAccountRepository()
    let keyring = InMemoryCredentialStore()
    let storage = InMemorySettingsStorage()
    let revocations = RecordingRevocationEndpoint()
    let google = OAuthProvider.preset("gmail")!

    func service(revocationStatus: Int = 200) -> (Accounts, SettingsStore) {
        let settings = SettingsStore(storage: storage)
        revocations.status.withLock { $0 = revocationStatus }
        let revocation = OAuthRevocation(http: revocations) { [google] id in id == "gmail" ? google : nil }
        return (Accounts(repository: repository, credentials: keyring, settings: settings, revocation: revocation), settings)
    }

    @Test("An account name is letters, digits, '-', '_' and '.', trimmed; anything else is refused with what to use")
    func names() throws {
        #expect(try Accounts.validName(" work.2_a-b ") == "work.2_a-b")
        #expect(try Accounts.validName("Büro") == "Büro")
        for bad in ["", "   ", "my work", "work/home", "a;b", "<b>"] {
            #expect(throws: AccountError.invalidName(bad.trimmingCharacters(in: .whitespaces))) { try Accounts.validName(bad) }
        }
        #expect("\(AccountError.invalidName("my work"))"
            == "'my work' cannot name an account: name it with letters, digits, '-', '_' or '.' (such as work or personal).")
    }

    @Test("Adding: the password goes to the keyring, never the account; a taken name, a bad address or window is refused before anything is stored")
    func adding() async throws {
        let (accounts, _) = service()
        let work = MailFixtures.account(name: "work", email: "ada@example.com")
        try await accounts.add(work, secret: .password("pa55"))
        #expect(await keyring.secrets[work.id] == "pa55")
        #expect(try await accounts.account(named: "work")?.credentialCommand == nil)

        var again = MailFixtures.account(name: " work ", email: "ada@example.org")
        await #expect(throws: AccountError.nameTaken("work")) { try await accounts.add(again, secret: .password("x")) }
        again.name = "home"
        again.email = "not an address"
        await #expect(throws: ComposeError.self) { try await accounts.add(again, secret: .password("x")) }
        again.email = "ada@example.org"
        again.syncWindowDays = 0
        await #expect(throws: AccountError.invalidSyncWindow(0)) { try await accounts.add(again, secret: .password("x")) }
        again.syncWindowDays = 30
        await #expect(throws: AccountError.emptyPassword) { try await accounts.add(again, secret: .password("")) }
        try await accounts.add(again, secret: .passwordCommand("pass show mail"))
        #expect(try await accounts.account(named: "home")?.credentialCommand == "pass show mail")
        #expect(await keyring.secrets.count == 1)

        // The tool's --oauth2-token-command: the account logs in with OAuth2, the command kept.
        let token = MailFixtures.account(name: "gmail", email: "ada@gmail.example")
        try await accounts.add(token, secret: .oauth2TokenCommand("oama access ada@gmail.example"))
        let stored = try #require(try await accounts.account(named: "gmail"))
        #expect(stored.authMethod == .oauth2)
        #expect(stored.credentialCommand == "oama access ada@gmail.example")
        #expect(await keyring.secrets.count == 1)
    }

    @Test("A CA certificate file is kept as a standardized path, and one that cannot be read is refused before anything is stored")
    func caFile() async throws {
        let (accounts, _) = service()
        let pem = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-ca-\(UUID().uuidString.prefix(8)).pem")
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: pem)
        defer { try? FileManager.default.removeItem(at: pem) }
        var work = MailFixtures.account(name: "work", email: "ada@example.com")
        work.caFile = pem.deletingLastPathComponent().path + "//./" + pem.lastPathComponent
        let stored = try await accounts.add(work, secret: .passwordCommand("true"))
        #expect(stored.caFile == pem.standardizedFileURL.path)
        #expect(try await accounts.account(id: work.id)?.caFile == pem.standardizedFileURL.path)
        var home = MailFixtures.account(name: "home", email: "ada@home.example")
        home.caFile = "/nonexistent/ca.pem"
        await #expect(throws: AccountError.unreadableCAFile("/nonexistent/ca.pem")) { try await accounts.add(home, secret: .passwordCommand("true")) }
        #expect(try await accounts.account(named: "home") == nil)
    }

    @Test("A keyring that refuses the password adds nothing, and says to start one or give a command")
    func keyringRefuses() async throws {
        let (accounts, _) = service()
        await keyring.setFailing(true)
        let work = MailFixtures.account(name: "work", email: "ada@example.com")
        await #expect(throws: AccountError.keyringUnavailable(email: "ada@example.com", reason: "the keyring is locked")) {
            try await accounts.add(work, secret: .password("pa55"))
        }
        #expect(try await accounts.all().isEmpty)
    }

    @Test("Renaming checks the same rule and that no other account has the name")
    func renaming() async throws {
        let (accounts, _) = service()
        var work = MailFixtures.account(name: "work", email: "ada@example.com")
        let home = MailFixtures.account(name: "home", email: "ada@home.example")
        try await accounts.add(work, secret: .passwordCommand("true"))
        try await accounts.add(home, secret: .passwordCommand("true"))
        work.name = "home"
        await #expect(throws: AccountError.nameTaken("home")) { try await accounts.update(work) }
        work.name = "my work"
        await #expect(throws: AccountError.invalidName("my work")) { try await accounts.update(work) }
        work.name = "office"
        try await accounts.update(work)
        #expect(try await accounts.account(id: work.id)?.name == "office")
    }

    @Test("AC-SEC-03: removing a password account deletes it, its keyring entry and every setting kept for it")
    func removingPasswordAccount() async throws {
        let (accounts, settings) = service()
        let work = MailFixtures.account(name: "work", email: "ada@example.com")
        let kept = MailFixtures.account(name: "home", email: "ada@home.example")
        try await accounts.add(work, secret: .password("pa55"))
        try await accounts.add(kept, secret: .password("other"))
        try await accounts.setSignature("Ada", for: work.id)
        settings.setNotificationsEnabled(false, for: work.id)
        settings.setNotificationsEnabled(false, for: kept.id)

        let removal = try await accounts.remove(accountId: work.id)
        #expect(removal == AccountRemoval(account: work, keyring: .removed, revocation: .notApplicable))
        #expect(removal.summary == "Removed account 'work' and all its mail, folders and settings from this machine. Its password was removed from the keyring.")
        #expect(try await accounts.account(id: work.id) == nil)
        #expect(await keyring.secrets.keys.sorted() == [kept.id])
        #expect(settings.accountsWithSettings == [kept.id])
        // Gone from the storage too, not only from this process's memory.
        #expect(SettingsStore(storage: storage).accountsWithSettings == [kept.id])
        #expect(revocations.posts.withLock { $0 }.isEmpty)
        await #expect(throws: AccountError.notFound(id: work.id)) { try await accounts.remove(accountId: work.id) }
    }

    @Test("AC-SEC-03: removing an OAuth2 account revokes its refresh token at the provider and deletes the grant")
    func removingOAuthAccount() async throws {
        let (accounts, _) = service()
        var work = MailFixtures.account(name: "gmail", email: "ada@gmail.com")
        work.authMethod = .oauth2
        work.credentialCommand = nil
        let grant = OAuthGrant(provider: "gmail", tokenEndpoint: google.tokenEndpoint,
                               client: OAuthClient(id: "client-1", secret: nil), refreshToken: "refresh-1")
        try await keyring.storeSecret(grant.encoded(), for: work)
        try await accounts.add(work, secret: nil)

        let removal = try await accounts.remove(accountId: work.id)
        #expect(removal.revocation == .revoked(provider: "Google"))
        #expect(removal.summary.hasSuffix("Its sign-in was removed from the keyring. Its sign-in was revoked at Google."))
        #expect(await keyring.secrets.isEmpty)
        let posts = revocations.posts.withLock { $0 }
        #expect(posts.count == 1)
        #expect(posts.first?.url == google.revocationEndpoint)
        #expect(posts.first?.fields.contains { $0.0 == "token" && $0.1 == "refresh-1" } == true)
    }

    @Test("A provider that refuses the revocation does not keep the account; the summary says where to remove the access")
    func revocationRefused() async throws {
        let (accounts, _) = service(revocationStatus: 503)
        var work = MailFixtures.account(name: "gmail", email: "ada@gmail.com")
        work.authMethod = .oauth2
        work.credentialCommand = nil
        try await keyring.storeSecret(OAuthGrant(provider: "gmail", tokenEndpoint: google.tokenEndpoint,
                                                 client: OAuthClient(id: "c", secret: nil), refreshToken: "r").encoded(), for: work)
        try await accounts.add(work, secret: nil)
        let removal = try await accounts.remove(accountId: work.id)
        guard case .failed(let provider, _) = removal.revocation else { Issue.record("revoked: \(removal)"); return }
        #expect(provider == "Google")
        #expect(removal.summary.contains("remove VaultMail's access in your account's security settings"))
        #expect(try await accounts.all().isEmpty)
        #expect(await keyring.secrets.isEmpty)
    }

    @Test("A keyring that refuses the removal still removes the account, and the summary names the command that finishes it")
    func keyringRefusesRemoval() async throws {
        let (accounts, _) = service()
        let work = MailFixtures.account(name: "work", email: "ada@example.com")
        try await accounts.add(work, secret: .password("pa55"))
        await keyring.setFailing(true)
        let removal = try await accounts.remove(accountId: work.id)
        #expect(!removal.isComplete)
        #expect(removal.summary.contains("`secret-tool clear application vaultmail account-id \(work.id)`"))
        #expect(try await accounts.all().isEmpty)
    }

    @Test("The accounts both doors list: all of them, the active ones for writing and lists, and their signatures")
    func reading() async throws {
        let (accounts, _) = service()
        let work = MailFixtures.account(name: "work", email: "ada@example.com")
        var old = MailFixtures.account(name: "old", email: "ada@old.example")
        old.isActive = false
        try await accounts.add(work, secret: .password("pa55"))
        try await accounts.add(old, secret: .password("pa55"))
        #expect(Set(try await accounts.all().map(\.name)) == ["work", "old"])
        #expect(try await accounts.active().map(\.name) == ["work"])
        try await accounts.setSignature("Ada", for: work.id)
        #expect(await accounts.signatures() == [work.id: "Ada"])
        #expect(await accounts.signature(of: old.id) == nil)
    }
}

/// A revocation endpoint that answers `status` and records what was posted to it.
final class RecordingRevocationEndpoint: OAuthHTTPClient {
    let status = Mutex(200)
    let posts = Mutex<[(url: URL, fields: [(String, String)])]>([])

    func postForm(_ url: URL, fields: [(String, String)]) async throws -> (status: Int, body: Data) {
        posts.withLock { $0.append((url, fields)) }
        return (status.withLock { $0 }, Data("{}".utf8))
    }
}
