import Foundation
import Synchronization
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

/// A private Dovecot, an in-memory store, and the sync engine between them.
struct SyncFixture {
    static let password = "correct horse battery staple"

    let server: DovecotServer
    let database: AppDatabase
    let store: GRDBEmailRepository
    let syncStore: GRDBSyncRepository
    let accounts: GRDBAccountRepository
    let connections: IMAPConnectionPool
    let sync: SyncEmailsUseCase
    let parser: CountingParser
    let clock: FixedClock

    /// Starts Dovecot with `users` (each gets an account `acct-<user>`), optionally announcing
    /// only `capabilities`.
    static func start(
        users: [String] = ["ada"], capabilities: [String]? = nil, batchSize: Int = 50, database given: AppDatabase? = nil,
        syncStore wrap: (GRDBSyncRepository) -> any SyncRepository = { $0 }
    ) async throws -> SyncFixture {
        let server = try await DovecotServer.start(
            users: Dictionary(uniqueKeysWithValues: users.map { ($0, password) }), capabilities: capabilities)
        let database = try given ?? AppDatabase.inMemory()
        let accounts = GRDBAccountRepository(database: database)
        for user in users {
            try await accounts.addAccount(Account(
                id: "acct-\(user)", name: user, email: "\(user)@example.com", imapHost: server.host,
                imapPort: server.imapPort, smtpHost: server.host, smtpPort: 25, security: .plain, username: user,
                syncWindowDays: 30, createdAt: MailFixtures.referenceDate))
        }
        let store = GRDBEmailRepository(database: database)
        let syncStore = GRDBSyncRepository(database: database)
        let connections = IMAPConnectionPool(
            credentials: FixedCredentialProvider(Dictionary(uniqueKeysWithValues: users.map { ("acct-\($0)", password) })),
            connectTimeout: .seconds(30), readTimeout: .seconds(30))
        let parser = CountingParser()
        let clock = FixedClock(Date())
        let sync = SyncEmailsUseCase(
            accounts: accounts, store: store, syncStore: wrap(syncStore), parser: parser, connections: connections,
            clock: clock, options: SyncOptions(batchSize: batchSize))
        return SyncFixture(
            server: server, database: database, store: store, syncStore: syncStore, accounts: accounts,
            connections: connections, sync: sync, parser: parser, clock: clock)
    }

    /// The sync of another process on the same store (the daemon beside the tool): its own
    /// connections, the same database.
    func otherProcessSync() -> SyncEmailsUseCase {
        let connections = IMAPConnectionPool(
            credentials: FixedCredentialProvider(["acct-ada": Self.password]), connectTimeout: .seconds(30), readTimeout: .seconds(30))
        return SyncEmailsUseCase(accounts: accounts, store: store, syncStore: syncStore, parser: parser, connections: connections, clock: clock)
    }

    /// An IMAP connection of "another client", logged in.
    func otherClient(_ user: String = "ada") async throws -> IMAPConnection {
        let imap = try await IMAPConnection.connect(to: IMAPEndpoint(
            host: server.host, port: server.imapPort, security: .plain, connectTimeout: .seconds(30), readTimeout: .seconds(30)))
        try await imap.login(user: user, password: Secret(Self.password))
        return imap
    }

    /// The server-backed repository over the fixture's store and pool.
    var repository: IMAPEmailRepository {
        IMAPEmailRepository(local: store, syncStore: syncStore, accounts: accounts, connections: connections)
    }

    func folder(_ type: FolderType, account: String = "acct-ada") async throws -> Folder {
        try #require(try await store.getFolders(accountId: account).first { $0.folderType == type })
    }

    func folder(path: String, account: String = "acct-ada") async throws -> Folder? {
        try await store.getFolders(accountId: account).first { $0.path == path }
    }

    /// Stored emails of the account's folder, by subject.
    func subjects(in type: FolderType, account: String = "acct-ada") async throws -> [String] {
        let folder = try await folder(type, account: account)
        let uids = try await syncStore.uidMap(folderId: folder.id)
        return try await syncStore.emails(folderId: folder.id, uids: Array(uids.keys)).values.map(\.subject).sorted()
    }

    func emailCount() throws -> Int { try database.rowCounts()["email"] ?? -1 }

    /// Delivers a message as the MTA would (`doveadm save`).
    func deliver(_ message: Data, to user: String = "ada", mailbox: String = "INBOX") throws {
        try server.deliver(message, to: user, mailbox: mailbox)
    }

    /// Writes a message straight into the user's Maildir `new/` (works while Dovecot is down).
    func dropIntoMaildir(_ message: Data, user: String = "ada", name: String) throws {
        let home = server.directory.appendingPathComponent("home").appendingPathComponent(user)
        let newDirectory = home.appendingPathComponent("Maildir/new")
        try FileManager.default.createDirectory(at: newDirectory, withIntermediateDirectories: true)
        let file = newDirectory.appendingPathComponent("\(Int(Date().timeIntervalSince1970)).\(name).vaultmail-test")
        try message.write(to: file)
        let owner = try FileManager.default.attributesOfItem(atPath: home.path)
        let uid = (owner[.ownerAccountID] as? NSNumber)?.uint32Value ?? getuid()
        let gid = (owner[.groupOwnerAccountID] as? NSNumber)?.uint32Value ?? getgid()
        for path in [home.appendingPathComponent("Maildir").path, newDirectory.path, file.path] { chown(path, uid, gid) }
        // Dovecot rescans new/ only when its mtime differs from the one it indexed; a file
        // written in the same second as its last scan would go unnoticed until the next change.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(2)], ofItemAtPath: newDirectory.path)
    }
}

/// `GMimeMessageParser` that counts the messages it parsed (how many were fetched).
final class CountingParser: MessageParser {
    private let parser = GMimeMessageParser()
    private let counter = Atomic<Int>(0)

    var count: Int { counter.load(ordering: .relaxed) }

    func parse(_ raw: [UInt8]) -> ParsedMessage {
        counter.add(1, ordering: .relaxed)
        return parser.parse(raw)
    }
}

/// Test messages whose Message-ID, In-Reply-To and References are `<id@example.com>`.
extension TestMessage {
    static func make(
        _ id: String, subject: String? = nil, from: String = "Grace <grace@example.com>", date: Date = Date(),
        inReplyTo: String? = nil, references: [String] = [], extraHeaders: [String] = [], body: String = "Hello."
    ) -> Data {
        TestMessage(from: from, subject: subject ?? "Message \(id)", date: date, messageId: fullMessageId(id),
                    inReplyTo: inReplyTo.map(fullMessageId), references: references.map(fullMessageId), headers: extraHeaders, body: body).data
    }

    static func fullMessageId(_ id: String) -> String { "<\(id)@example.com>" }

    static func rfc822(_ date: Date) -> String { rfc822Date(date) }

    static func emailId(_ id: String, account: String = "acct-ada") -> String {
        Email.stableID(accountId: account, messageId: fullMessageId(id))
    }
}
