import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 33: a message is woken once when a second VaultMail process, with its own store that
    /// still says it is snoozed (another machine, or a daemon restarted from an older store), wakes
    /// after the first: it reads the server, not its store. (Two waking in the very same instant
    /// can both move it: docs/snooze.md, "Known limit".)
    @Suite("Snooze: a second client waking after the first brings nothing back again (issue 33)")
    struct SnoozeWakeTests {
        static func snoozeServer(_ graph: OfflineTriageTests.Graph) -> IMAPSnoozeServer {
            let database = graph.database
            return IMAPSnoozeServer(
                local: graph.store, syncStore: GRDBSyncRepository(database: database), accounts: GRDBAccountRepository(database: database),
                connections: IMAPConnectionPool(credentials: FixedCredentialProvider(["acct-ada": SyncFixture.password]),
                                                connectTimeout: .seconds(10), readTimeout: .seconds(30)),
                times: GRDBSnoozeRepository(database: database))
        }

        @Test("Issue 33: two stores both hold the same due message; the first to wake moves and announces it, the second, after it, nothing; it is in the inbox once, unread, its keyword gone")
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

            let woken = try await one.wake(accountId: "acct-ada", now: Date())
            let other = try await two.wake(accountId: "acct-ada", now: Date())
            #expect(woken.emailIds.count == 1 && other.emailIds.isEmpty, "\(woken) \(other)")
            #expect([woken, other].flatMap(\.emailIds) == [TestMessage.emailId("w-0")])
            #expect([woken, other].flatMap { $0.snoozedUntil.values } == [due])
            #expect(try await ServerActionTests.serverMessageIds("INBOX", fixture) == ["<w-0@example.com>"])
            #expect(try await ServerActionTests.serverMessageIds("Snoozed", fixture).isEmpty)
            let flags = try #require(try await ServerActionTests.serverFlags("INBOX", fixture).values.first)
            #expect(!flags.contains(.seen) && !flags.contains { SnoozeTime.isKeyword($0.name) }, "\(flags)")
        }
    }
}
