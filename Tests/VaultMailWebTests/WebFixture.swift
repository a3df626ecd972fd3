import Foundation
import Logging
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailStore
import VaultMailTesting
@testable import VaultMailWeb

/// The web app served on a free loopback port over an in-memory store holding one account
/// with a few conversations; actions are the store's own (no IMAP server).
@MainActor
final class WebFixture {
    let database: AppDatabase
    let app: AppDependencies
    let web: WebApp
    let home: URL
    let account = MailFixtures.account(name: "work", email: "me@example.com")
    let folders: [Folder]
    let port: Int
    /// Where sent messages and Drafts copies go (no servers in this fixture).
    let transport: RecordingMailTransport
    let remote: RecordingRemoteMailbox
    /// The keyring the web app's account administration keeps secrets in.
    let keyring = InMemoryCredentialStore()
    /// The accounts "Sign in again" told the daemon about, in order.
    let signedInAgain = LockedBox<[String]>([])
    private let task: Task<Void, any Error>

    /// `embedder` is the sentence model search by meaning reads with (none by default);
    /// `generator`, the model summaries and suggested replies are written with (none by default).
    /// `oauth`, where "Sign in with Google / Microsoft" finds its client and endpoints.
    /// `idleness`, whether the machine counts as idle (always, by default).
    /// `clock`, the app's "now" (the system's by default; a fixed one for what depends on the day).
    static func with(embedder: (any TextEmbedder)? = nil, generator: (any TextGenerator)? = nil, oauth: OAuthConfiguration? = nil,
                     oauthTimeout: Duration = .seconds(20), idleness: MachineIdleness = MachineIdleness(loadAverage: { 0 }),
                     clock: any WallClock = SystemWallClock(), openPGP: (any OpenPGPEngine)? = nil,
                     _ body: (WebFixture) async throws -> Void) async throws {
        let fixture = try await WebFixture(embedder: embedder, generator: generator, oauth: oauth, oauthTimeout: oauthTimeout, idleness: idleness,
                                           clock: clock, openPGP: openPGP)
        do {
            try await body(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    /// `openPGP`: the engine the composer encrypts and signs with (issue 32); none by default.
    private init(embedder: (any TextEmbedder)?, generator: (any TextGenerator)?, oauth: OAuthConfiguration?, oauthTimeout: Duration,
                 idleness: MachineIdleness, clock: any WallClock, openPGP: (any OpenPGPEngine)?) async throws {
        database = try AppDatabase.inMemory()
        home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-web-\(UUID().uuidString.prefix(8))")
        app = await AppDependencies(database: database, center: MockNotificationCenter(), composeEmail: RecordingComposeEmail())
        folders = MailFixtures.standardFolders(accountId: account.id)
        try await app.accountRepository.addAccount(account)
        try await app.emailRepository.saveFolders(folders)
        transport = RecordingMailTransport()
        remote = RecordingRemoteMailbox()
        let sending = MailSending(database: database, credentials: FixedCredentialProvider(everyAccount: "secret"), undoDelaySeconds: { 0 },
                                  transport: transport, remoteMailbox: remote, openPGP: openPGP)
        let signedInAgain = self.signedInAgain
        var mail = app.webMail(compose: sending.compose, credentials: keyring, textEmbedder: embedder, textGenerator: generator,
                               oauthConfiguration: oauth ?? OAuthConfiguration(), oauthTimeout: oauthTimeout,
                               onSignedInAgain: { signedInAgain.set(signedInAgain.value + [$0]) })
        // Automatic summaries wait for an idle machine; tests run on busy ones.
        mail.idleness = idleness
        mail.storage = VaultMailHome(explicit: home.path).storage(database: database, accounts: app.accountRepository)
        mail.clock = clock
        web = try WebApp(configuration: WebConfiguration(port: 0, home: home), mail: mail, logger: Logger(label: "web-test"))
        let web = self.web
        task = Task { try await web.run() }
        guard let port = await web.waitUntilServing() else { throw HTTPTestClient.Failure(description: "the web app did not start") }
        self.port = port
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
        try? FileManager.default.removeItem(at: home)
    }

    /// Stores emails in the inbox (or `folder`).
    @discardableResult
    func store(_ emails: [Email], in type: FolderType = .inbox) async throws -> [Email] {
        try await app.emailRepository.saveEmails(emails.map { MailFixtures.incoming($0, in: [folders.of(type)]) })
    }

    var origin: String { "http://127.0.0.1:\(port)" }

    /// A session cookie, obtained the way a browser gets one: a one-time token posted from the
    /// page `vaultmail open` writes (Origin "null").
    func signIn() async throws -> (cookie: String, csrf: String) {
        let secret = try #require(try WebSecret.load(at: web.configuration.secretURL))
        let token = SignInToken.make(secret: secret)
        let reply = try await HTTPTestClient.request(port: port, method: "POST", path: "/signin",
                                                     headers: [("Origin", "null"), ("Content-Type", "application/x-www-form-urlencoded")],
                                                     body: "token=\(token)")
        let setCookie = try #require(reply.headers["set-cookie"], "no session cookie: \(reply.status) \(reply.text)")
        let cookie = String(setCookie.split(separator: ";")[0])
        let page = try await get("/mail", cookie: cookie)
        let csrf = try #require(page.text.firstMatch(of: /name="csrf-token" content="([0-9a-f]+)"/)?.1, "no CSRF token on the page")
        return (cookie, String(csrf))
    }

    func get(_ path: String, cookie: String?, headers: [(String, String)] = []) async throws -> HTTPTestClient.Reply {
        try await HTTPTestClient.request(port: port, path: path, headers: (cookie.map { [("Cookie", $0)] } ?? []) + [("Accept", "text/html")] + headers)
    }

    func post(_ path: String, _ body: String, cookie: String?, origin: String? = "self", extra: [(String, String)] = []) async throws -> HTTPTestClient.Reply {
        var headers: [(String, String)] = [("Content-Type", "application/x-www-form-urlencoded")]
        if let cookie { headers.append(("Cookie", cookie)) }
        if let origin { headers.append(("Origin", origin == "self" ? self.origin : origin)) }
        return try await HTTPTestClient.request(port: port, method: "POST", path: path, headers: headers + extra, body: body)
    }
}
