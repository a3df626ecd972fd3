import Foundation
import Testing
@testable import VaultMailApp
import VaultMailCore
import VaultMailIMAP
import VaultMailNotifications
import VaultMailStore
import VaultMailSync
import VaultMailTesting

@MainActor
@Suite("Daemon parts: single instance, account alerts (issue 7)")
struct DaemonPartsTests {
    @Test("A second daemon on the same home refuses to start, naming the first one's pid")
    func singleInstance() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-lock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try withExtendedLifetime(try DaemonLock(path: path)) {
            let error = try #require(throws: CommandError.self) { try DaemonLock(path: path) }
            #expect("\(error)".contains("pid \(getpid())"))
            #expect("\(error)".contains("already running"))
        }
        _ = try DaemonLock(path: path)  // the first lock is released with it
    }

    @Test("A failing login raises one notification, with no repeats, withdrawn on recovery")
    func loginFailure() async throws {
        let center = MockNotificationCenter()
        let clock = FixedClock(MailFixtures.referenceDate)
        let health = AccountHealthMonitor(center: center, clock: clock)
        let account = MailFixtures.account()
        await health.report(.loginFailed("[AUTHENTICATIONFAILED] Authentication failed."), for: account)
        await health.report(.loginFailed("[AUTHENTICATIONFAILED] Authentication failed."), for: account)
        #expect(center.addedRequests.count == 1)
        let alert = try #require(center.addedRequests.first)
        #expect(alert.content.title.contains("work"))
        // In a person's words (issue 29): the host without its port, the user, what to do.
        #expect(alert.content.body == "Cannot log in: 127.0.0.1 refused the sign-in for \(account.username). Check the password in the account's settings.")
        await health.recovered(account)
        #expect(center.removedIdentifiers == [alert.identifier])
        await health.report(.loginFailed("again"), for: account)
        #expect(center.addedRequests.count == 2)
    }

    @Test("Issue 29: a refused connection is 'unreachable' in people's words, never TLS; a TLS failure stays one and is said as such at once")
    func problemsInPlainWords() async throws {
        var account = MailFixtures.account()
        account.imapHost = "imap.example.org"
        let refused = SyncError(kind: .server, accountId: account.id, underlying: IMAPError(
            kind: .connectionFailed, operation: "connect to", host: "imap.example.org", port: 993, reason: "Connection refused"))
        let problem = AccountHealthMonitor.Problem(refused)
        #expect(problem == .unreachable("\(refused)"))
        #expect(problem.words(for: account) == "Server unreachable: can't reach imap.example.org. Check your connection; VaultMail will retry.")
        #expect(problem.detail.contains("imap.example.org:993"), "the detail keeps host and port")
        let tls = SyncError(kind: .server, accountId: account.id, underlying: IMAPError(
            kind: .tlsFailed, operation: "negotiate TLS with", host: "imap.example.org", port: 143, reason: "the TLS handshake failed"))
        let insecure = AccountHealthMonitor.Problem(tls)
        guard case .insecure = insecure else {
            Issue.record("a TLS failure is not \(insecure)")
            return
        }
        #expect(insecure.words(for: account) == "Can't make a secure connection to imap.example.org. Check the account's security setting (TLS or STARTTLS) and port.")
        let center = MockNotificationCenter()
        await AccountHealthMonitor(center: center, clock: FixedClock(MailFixtures.referenceDate)).report(insecure, for: account)
        #expect(center.addedRequests.first?.content.body.hasPrefix("Cannot connect securely: Can't make a secure connection") == true,
                "said at once, not after the outage grace")
    }

    @Test("A lost connection is announced only after 5 minutes without recovery, once")
    func outage() async throws {
        let center = MockNotificationCenter()
        let clock = FixedClock(MailFixtures.referenceDate)
        let health = AccountHealthMonitor(center: center, clock: clock)
        let account = MailFixtures.account()
        await health.report(.unreachable("127.0.0.1:1143 refused the connection"), for: account)
        clock.advance(by: 299)
        await health.report(.unreachable("127.0.0.1:1143 refused the connection"), for: account)
        #expect(center.addedRequests.isEmpty)
        clock.advance(by: 2)
        await health.report(.unreachable("127.0.0.1:1143 refused the connection"), for: account)
        clock.advance(by: 600)
        await health.report(.unreachable("127.0.0.1:1143 refused the connection"), for: account)
        #expect(center.addedRequests.count == 1)
        #expect(health.isAnnounced(account))
        #expect(center.addedRequests.first?.content.body == "No connection for 5 minutes. Server unreachable: can't reach \(account.imapHost). Check your connection; VaultMail will retry.")
    }

    @Test("A response to an account alert is not taken for an email action")
    func alertResponsesIgnored() async throws {
        let center = MockNotificationCenter()
        let health = AccountHealthMonitor(center: center, clock: FixedClock(MailFixtures.referenceDate))
        let repository = MockEmailRepository()
        let settings = SettingsStore(storage: InMemorySettingsStorage())
        let clock = FixedClock(MailFixtures.referenceDate)
        let service = NotificationService(center: center, settingsStore: settings, emailRepository: repository,
                                          filterPipeline: .standard(settings: settings, clock: clock),
                                          ledger: InMemoryNotificationLedger(), clock: clock)
        let handler = NotificationResponseHandler(
            conversations: Conversations(emails: repository, settings: settings, withdrawNotifications: nil),
            composition: Compose(emails: repository, accounts: InMemoryAccountRepository(), clock: clock,
                                 signature: { _ in nil }, sizeLimit: { _ in nil }),
            composeEmail: RecordingComposeEmail(), notificationService: service)
        center.setDelegate(handler)
        let account = MailFixtures.account()
        await health.report(.loginFailed("bad password"), for: account)
        try await center.respond(to: "account-\(account.id)", action: NotificationResponse.defaultActionIdentifier)
        #expect(handler.lastOutcome == .dismissed)
        #expect(await repository.calls.isEmpty)
    }

    @Test("A refused login is a login problem; a server busy or shutting down is an outage")
    func problemKinds() {
        func login(_ kind: IMAPError.Kind, _ server: String?) -> IMAPError {
            IMAPError(kind: kind, operation: "log in to", host: "127.0.0.1", port: 993, user: "ada", serverResponse: server)
        }
        let account = MailFixtures.account()
        let refused = SyncError(kind: .server, accountId: account.id, underlying: login(.authenticationFailed, "[AUTHENTICATIONFAILED] Authentication failed."))
        #expect(MailDaemon.problem(refused) == .loginFailed("\(refused)"))
        let command = SyncError(kind: .credentials, accountId: account.id, underlying: CommandError("the credential command of account 'work' failed (status 1)"))
        #expect(MailDaemon.problem(command) == .loginFailed("\(command)"))
        let busy = login(.authenticationFailed, "[UNAVAILABLE] Internal error occurred.")
        #expect(MailDaemon.problem(busy) == .unreachable("\(busy)"))
        let down = IMAPError(kind: .connectionFailed, operation: "connect to", host: "127.0.0.1", port: 993, reason: "Connection refused")
        #expect(MailDaemon.problem(down) == .unreachable("\(down)"))
        let dropped = login(.connectionLost, nil)
        #expect(MailDaemon.problem(dropped) == .unreachable("\(dropped)"), "a connection lost during LOGIN is an outage")
    }

    @Test("Issue 34: a sync whose store write finds the disk full (a real SQLITE_FULL on a small filesystem) is a full disk: its words, its log line, announced at once",
          .enabled(if: SmallFilesystem.canMount, "\(SmallFilesystem.cannotMountReason)"))
    func diskFull() async throws {
        let disk = try SmallFilesystem(size: 8 << 20)
        defer { disk.unmount() }
        let database = try AppDatabase.open(path: disk.directory.appendingPathComponent("vaultmail.sqlite").path)
        try disk.fill()
        let storage = GRDBSettingsStorage(database: database)
        let full = try #require(throws: (any Error).self) { try storage.setValue(Data(count: 4 << 20), forKey: "a-big-value") }
        disk.free()
        let account = MailFixtures.account()
        let error = SyncError(kind: .store, accountId: account.id, accountName: account.name, underlying: full)
        let problem = MailDaemon.problem(error)
        #expect(problem == .diskFull("\(error)"), "\(full)")
        #expect(problem.words(for: account) == PlainWords.diskFull)
        #expect(PlainWords.of(error) == PlainWords.diskFull)
        let line = MailDaemon.interruption(problem, account: account, error: error, retryIn: .seconds(4))
        #expect(line.contains("disk is full") && !line.contains("connection lost"), "\(line)")
        let center = MockNotificationCenter()
        let health = AccountHealthMonitor(center: center, clock: FixedClock(MailFixtures.referenceDate))
        await health.report(problem, for: account)
        #expect(center.addedRequests.map(\.content.body) == ["Cannot store mail: \(PlainWords.diskFull)"], "announced at once: only freeing space ends it")
    }

    @Test("The outage alert says how long the connection has been down")
    func outageDuration() {
        #expect(AccountHealthMonitor.duration(300) == "5 minutes")
        #expect(AccountHealthMonitor.duration(60) == "1 minute")
        #expect(AccountHealthMonitor.duration(3) == "3 seconds")
    }
}
