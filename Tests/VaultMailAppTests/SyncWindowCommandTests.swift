import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
import VaultMailTesting

/// Issue 17: `account set NAME --sync-window-days N|all`, and the web app's "mail kept" through
/// `AccountAdministrator`, both change what the next sync fetches (against a real Dovecot).
@Suite("Account sync window (account set, mail kept)", .serialized)
@MainActor
struct SyncWindowCommandTests {
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/vaultmail").path

    /// Dovecot with ada's INBOX holding mail of `ages` days ago, and a session whose account
    /// "work" reads it with a 30-day window.
    static func world(_ ages: [Int]) async throws -> (DovecotServer, CommandSession, URL) {
        let server = try await DovecotServer.start(users: ["ada": "pw"])
        let other = try await IMAPConnection.connect(to: IMAPEndpoint(
            host: server.host, port: server.imapPort, security: .plain, connectTimeout: .seconds(30), readTimeout: .seconds(30)))
        try await other.login(user: "ada", password: "pw")
        for age in ages.sorted(by: >) {
            let date = Date().addingTimeInterval(-Double(age) * 86_400 - 3600)
            let message = TestMessage(to: "ada@example.com", subject: "aged \(age)", date: date, messageId: "<aged-\(age)@example.com>",
                                      contentType: nil)
            try await other.append(message.data, to: "INBOX", internalDate: date)
        }
        await other.logout()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-window-\(UUID().uuidString.prefix(8))")
        let session = try CommandSession(home: VaultMailHome(explicit: home.path))
        var new = CommandSession.NewAccount(name: "work", email: "ada@example.com", imap: "127.0.0.1:\(server.imapPort)",
                                            smtp: "127.0.0.1:25", credential: .passwordCommand("printf pw"))
        new.security = .plain
        new.user = "ada"
        _ = try await session.addAccount(new)
        return (server, session, home)
    }

    /// Subjects stored in the inbox of "work".
    static func storedSubjects(_ session: CommandSession) async throws -> [String] {
        let account = try await session.account(named: "work")
        let inbox = try #require(try await session.dependencies.emails.getFolders(accountId: account.id).first { $0.folderType == .inbox })
        let syncStore = GRDBSyncRepository(database: session.dependencies.database)
        let uids = try await syncStore.uidMap(folderId: inbox.id)
        return try await syncStore.emails(folderId: inbox.id, uids: Array(uids.keys)).values.map(\.subject).sorted()
    }

    @Test("`account set --sync-window-days all` makes the next sync fetch the older mail; a narrower window deletes nothing",
          .timeLimit(.minutes(2)))
    func accountSet() async throws {
        let (server, session, home) = try await Self.world([3000, 90, 2])
        defer { try? FileManager.default.removeItem(at: home) }
        _ = server
        _ = try await session.sync(["work"]) { _ in }
        #expect(try await Self.storedSubjects(session) == ["aged 2"])

        let said = try await session.setAccount(named: "work", syncWindowDays: try CommandSession.syncWindowDays("all"))
        #expect(said == "Account 'work' keeps all mail (the next sync fetches the older mail, newest first).")
        #expect(try await session.account(named: "work").syncWindowDays == AppConstants.allMailSyncWindowDays)
        let summary = try await session.sync(["work"]) { _ in }
        #expect(summary.contains("work: 2 new messages"), "\(summary)")
        #expect(try await Self.storedSubjects(session) == ["aged 2", "aged 3000", "aged 90"])

        let narrowed = try await session.setAccount(named: "work", syncWindowDays: try CommandSession.syncWindowDays("7"))
        #expect(narrowed.contains("mail already stored is kept"))
        _ = try await session.sync(["work"]) { _ in }
        #expect(try await Self.storedSubjects(session) == ["aged 2", "aged 3000", "aged 90"])
    }

    @Test("The web app's \"mail kept\" (Accounts.update) takes effect at the next sync", .timeLimit(.minutes(2)))
    func mailKeptSetting() async throws {
        let (server, session, home) = try await Self.world([400, 100, 1])
        defer { try? FileManager.default.removeItem(at: home) }
        _ = server
        _ = try await session.sync(["work"]) { _ in }
        #expect(try await Self.storedSubjects(session) == ["aged 1"])

        let administrator = Accounts(database: session.dependencies.database, credentials: session.credentials, settings: session.dependencies.settings)
        var account = try await session.account(named: "work")
        account.syncWindowDays = 180  // "6 months"
        try await administrator.update(account)
        _ = try await session.sync(["work"]) { _ in }
        #expect(try await Self.storedSubjects(session) == ["aged 1", "aged 100"])

        account.syncWindowDays = AppConstants.allMailSyncWindowDays  // "All mail"
        try await administrator.update(account)
        _ = try await session.sync(["work"]) { _ in }
        #expect(try await Self.storedSubjects(session) == ["aged 1", "aged 100", "aged 400"])
    }

    @Test("--sync-window-days takes N (1–36500) or all; anything else is a usage error naming the value")
    func parsing() throws {
        #expect(try CommandSession.syncWindowDays("all") == AppConstants.allMailSyncWindowDays)
        #expect(try CommandSession.syncWindowDays("ALL") == AppConstants.allMailSyncWindowDays)
        #expect(try CommandSession.syncWindowDays("90") == 90)
        for bad in ["forever", "0", "-3", "36501", ""] {
            #expect { try CommandSession.syncWindowDays(bad) } throws: { error in
                guard let error = error as? CommandError else { return false }
                return error.isUsage && error.description.contains("'\(bad)'") && error.description.contains("'all'")
            }
        }
    }

    @Test("`vaultmail account set work --sync-window-days forever` exits 2 with a clear error; so does account add",
          .timeLimit(.minutes(5)))
    func badValueExitsTwo() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-window-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        for arguments in [
            ["account", "set", "work", "--sync-window-days", "forever"],
            ["account", "add", "work", "--email", "ada@example.com", "--imap", "127.0.0.1:1143", "--smtp", "127.0.0.1:1025",
             "--security", "plain", "--password-command", "printf pw", "--sync-window-days", "forever"],
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.arguments = arguments + ["--home", home.path]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = Pipe()
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "\(arguments): \(text)")
            #expect(text.contains("--sync-window-days: 'forever' is neither a number of days (1–36500) nor 'all'"), "\(text)")
        }
    }
}
