import Foundation
import VaultMailApp
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
import VaultMailTesting

/// Real servers for sending: a private Dovecot (IMAP: Sent and Drafts) and an aiosmtpd SMTP
/// server signed by the same test CA, an account pointing at both, and a store in a file (so
/// a "restart" opens it again). Removes its files when released.
final class ServerFixture: @unchecked Sendable {
    // @unchecked: immutable after init; the servers are thread-safe.
    static let user = "ada"
    static let password = "correct horse battery staple"

    let dovecot: DovecotServer
    let smtp: SMTPTestServer
    let directory: URL
    let account: Account
    let clock = FixedClock(Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded()))

    init(security: ConnectionSecurity = .tls, smtpCertificate: SMTPTestServer.Certificate = .trusted) async throws {
        dovecot = try await DovecotServer.start(users: [Self.user: Self.password])
        smtp = try await SMTPTestServer.start(
            user: Self.user, password: Self.password, certificate: smtpCertificate, certificates: dovecot.certificates)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-sending-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        account = Account(
            id: "acct-ada", name: "ada", email: "ada@example.com", displayName: "Ada Lovelace", imapHost: "127.0.0.1",
            imapPort: security == .tls ? dovecot.imapsPort : dovecot.imapPort, smtpHost: "127.0.0.1",
            smtpPort: security == .tls ? smtp.tlsPort : smtp.port, security: security, username: Self.user,
            caFile: dovecot.caFile)
        let database = try openDatabase()
        try await GRDBAccountRepository(database: database).addAccount(account)
        try await GRDBEmailRepository(database: database).saveFolders(MailFixtures.standardFolders(accountId: account.id))
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The store, opened (again) from its file; `home` names another VaultMail home on the same
    /// account (`addHome`).
    func openDatabase(home: String = "store") throws -> AppDatabase {
        try AppDatabase.open(path: directory.appendingPathComponent("\(home).sqlite").path)
    }

    /// A second VaultMail home (another machine) on the same account: its own store, the account
    /// and its folders in it. Returns its name for `sending(home:)`.
    func addHome(_ home: String) async throws -> String {
        let database = try openDatabase(home: home)
        try await GRDBAccountRepository(database: database).addAccount(account)
        try await GRDBEmailRepository(database: database).saveFolders(MailFixtures.standardFolders(accountId: account.id))
        return home
    }

    /// Sending as a freshly started app would compose it: a new store connection and a new run.
    func sending(undoDelay: Int = 0, secret: String = ServerFixture.password, home: String = "store") throws -> (AppDatabase, MailSending) {
        let database = try openDatabase(home: home)
        let sending = MailSending(
            database: database, credentials: FixedCredentialProvider(everyAccount: secret), undoDelaySeconds: { undoDelay }, clock: clock)
        return (database, sending)
    }

    func draft(
        _ compose: ComposeEmailService, to: [String] = ["Grace Hopper <grace@example.com>"], cc: [String] = [],
        bcc: [String] = [], subject: String = "Hello", body: String = "Hi Grace,\nsee you.\n",
        attachments: [DraftAttachment] = [], draftId: String? = nil
    ) async throws -> String {
        try await compose.saveDraft(
            draftId: draftId, accountId: account.id, threadId: nil, toAddresses: to, ccAddresses: cc, bccAddresses: bcc,
            subject: subject, bodyPlain: body, inReplyTo: nil, references: nil, attachments: attachments)
    }

    /// The raw messages in a Dovecot mailbox, by UID.
    func messages(in mailbox: String) async throws -> [IMAPMessage] {
        let imap = try await IMAPConnection.connect(
            to: IMAPEndpoint(host: dovecot.host, port: dovecot.imapsPort, security: .tls, caFile: dovecot.caFile))
        try await imap.login(user: Self.user, password: Secret(Self.password))
        _ = try await imap.select(mailbox)
        let uids = try await imap.searchUIDs()
        let messages = uids.isEmpty ? [] : try await imap.fetchMessages(UIDSet(uids), items: [.rawMessage, .flags])
        await imap.logout()
        return messages
    }
}
