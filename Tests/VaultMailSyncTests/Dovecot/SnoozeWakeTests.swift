import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 33: waking is exactly once however many VaultMail processes watch the account, each
    /// with its own store (two machines, two daemons): the server's MOVE of a message succeeds once.
    @Suite("Snooze: two clients waking the same message at once bring it back once (issue 33)")
    struct SnoozeWakeTests {
        static func snoozeServer(_ graph: OfflineTriageTests.Graph) -> IMAPSnoozeServer {
            let database = graph.database
            return IMAPSnoozeServer(
                local: graph.store, syncStore: GRDBSyncRepository(database: database), accounts: GRDBAccountRepository(database: database),
                connections: IMAPConnectionPool(credentials: FixedCredentialProvider(["acct-ada": SyncFixture.password]),
                                                connectTimeout: .seconds(10), readTimeout: .seconds(30)),
                times: GRDBSnoozeRepository(database: database))
        }

        @Test("Issue 33: two stores wake the same due message at the same moment: one of them moved it and announces it, the other nothing; it is in the inbox once, unread, its keyword gone")
        func wakeOnce() async throws {
            let (fixture, first, _) = try await OfflineTriageTests.start(["w-0"], folders: ["Snoozed"])
            let second = try OfflineTriageTests.Graph(
                path: fixture.server.directory.appendingPathComponent("second-\(UUID().uuidString).sqlite").path, fixture: fixture)
            try await GRDBAccountRepository(database: second.database).addAccount(try #require(try await fixture.accounts.getAccount(id: "acct-ada")))
            let (one, two) = (Self.snoozeServer(first), Self.snoozeServer(second))
            let due = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded(.down))
            try await one.snooze(threadId: try await first.thread("w-0"), until: .until(due))
            #expect(try await ServerActionTests.serverMessageIds("Snoozed", fixture) == ["<w-0@example.com>"])
            // The second store learns it from the server, as another machine's sync would.
            try await second.sync.syncAccount(accountId: "acct-ada")
            try await two.refresh(accountId: "acct-ada")
            #expect(try await GRDBSnoozeRepository(database: second.database).snoozed().map(\.time) == [.until(due)])

            async let a = one.wake(accountId: "acct-ada", now: Date())
            async let b = two.wake(accountId: "acct-ada", now: Date())
            let (woken, other) = try await (a, b)
            #expect(woken.emailIds.count + other.emailIds.count == 1, "\(woken) \(other)")
            #expect([woken, other].flatMap(\.emailIds) == [TestMessage.emailId("w-0")])
            #expect([woken, other].flatMap { $0.snoozedUntil.values } == [due])
            #expect(try await ServerActionTests.serverMessageIds("INBOX", fixture) == ["<w-0@example.com>"])
            #expect(try await ServerActionTests.serverMessageIds("Snoozed", fixture).isEmpty)
            let flags = try #require(try await ServerActionTests.serverFlags("INBOX", fixture).values.first)
            #expect(!flags.contains(.seen) && !flags.contains { SnoozeTime.isKeyword($0.name) }, "\(flags)")
        }
    }
}
