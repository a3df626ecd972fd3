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
    /// after the first: it reads the server, not its store; and when both wake in the same
    /// instant, only the one whose CONDSTORE claim succeeds moves it (docs/snooze.md, "Waking").
    @Suite("Snooze: two clients waking the same mail, one after the other or at once, bring it back once (issue 33)")
    struct SnoozeWakeTests {
        static func snoozeServer(_ graph: OfflineTriageTests.Graph) -> IMAPSnoozeServer {
            let database = graph.database
            return IMAPSnoozeServer(
                local: graph.store, syncStore: GRDBSyncRepository(database: database), accounts: GRDBAccountRepository(database: database),
                connections: IMAPConnectionPool(credentials: FixedCredentialProvider(["acct-ada": SyncFixture.password]),
                                                connectTimeout: .seconds(10), readTimeout: .seconds(30)),
                times: GRDBSnoozeRepository(database: database))
        }

        /// Two stores (two machines) over one Dovecot account, both knowing `ids` snoozed until
        /// a minute ago.
        static func twoClients(_ ids: [String], capabilities: [String]? = nil) async throws
            -> (fixture: SyncFixture, first: IMAPSnoozeServer, second: IMAPSnoozeServer, due: Date) {
            let (fixture, first, _) = try await OfflineTriageTests.start(ids, folders: ["Snoozed"], capabilities: capabilities)
            let second = try OfflineTriageTests.Graph(
                path: fixture.server.directory.appendingPathComponent("second-\(UUID().uuidString).sqlite").path, fixture: fixture)
            try await GRDBAccountRepository(database: second.database).addAccount(try #require(try await fixture.accounts.getAccount(id: "acct-ada")))
            let (one, two) = (Self.snoozeServer(first), Self.snoozeServer(second))
            let due = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded(.down))
            for id in ids { try await one.snooze(threadId: try await first.thread(id), until: .until(due)) }
            #expect(try await ServerActionTests.serverMessageIds("Snoozed", fixture) == ids.map { "<\($0)@example.com>" }.sorted())
            // The second store learns it from the server, as another machine's sync would.
            try await second.sync.syncAccount(accountId: "acct-ada")
            try await two.refresh(accountId: "acct-ada")
            #expect(try await GRDBSnoozeRepository(database: second.database).snoozed().map(\.time) == ids.map { _ in .until(due) })
            return (fixture, one, two, due)
        }

        /// Every id in the inbox on the server exactly once, none left in Snoozed, unread and
        /// without snooze keywords; each announced by exactly one of the two.
        static func expectWokenOnce(_ ids: [String], _ woken: WokenMail, _ other: WokenMail, due: Date, _ fixture: SyncFixture) async throws {
            #expect(Set(woken.emailIds).isDisjoint(with: other.emailIds), "announced twice: \(woken) \(other)")
            #expect((woken.emailIds + other.emailIds).sorted() == ids.map { TestMessage.emailId($0) }.sorted())
            #expect(Set([woken, other].flatMap { $0.snoozedUntil.values }) == [due])
            #expect(try await ServerActionTests.serverMessageIds("INBOX", fixture) == ids.map { "<\($0)@example.com>" }.sorted())
            #expect(try await ServerActionTests.serverMessageIds("Snoozed", fixture).isEmpty)
            for flags in try await ServerActionTests.serverFlags("INBOX", fixture).values {
                #expect(!flags.contains(.seen) && !flags.contains { SnoozeTime.isKeyword($0.name) }, "\(flags)")
            }
        }

        @Test("Issue 33: two stores both hold the same due message; the first to wake moves and announces it, the second, after it, nothing; it is in the inbox once, unread, its keyword gone")
        func wakeOnce() async throws {
            let (fixture, one, two, due) = try await Self.twoClients(["w-0"])
            let woken = try await one.wake(accountId: "acct-ada", now: Date())
            let other = try await two.wake(accountId: "acct-ada", now: Date())
            #expect(woken.emailIds.count == 1 && other.emailIds.isEmpty, "\(woken) \(other)")
            try await Self.expectWokenOnce(["w-0"], woken, other, due: due, fixture)
        }

        @Test("Issue 33: two clients waking the same due mail at the same instant (CONDSTORE): each message is claimed and moved by one of them only; in the inbox once, announced once")
        func wakeAtOnce() async throws {
            // Without the claim, about one round in three moved every message twice here; three
            // rounds, each on a fresh server.
            for round in 0..<3 {
                let ids = (0..<6).map { "a\(round)-\($0)" }
                let (fixture, one, two, due) = try await Self.twoClients(ids)
                async let first = one.wake(accountId: "acct-ada", now: Date())
                async let second = two.wake(accountId: "acct-ada", now: Date())
                let (woken, other) = try await (first, second)
                try await Self.expectWokenOnce(ids, woken, other, due: due, fixture)
            }
        }

        @Test("Issue 33: a client that claimed a due message and died before its MOVE leaves it snoozed for the lease; then one client wakes it, once")
        func abandonedClaim() async throws {
            let (fixture, one, two, _) = try await Self.twoClients(["c-0"])
            // The dead client's claim, as `claim` stores it: the keyword replaced by one a lease ahead.
            let now = Date()
            let lease = SnoozeTime.until(now.addingTimeInterval(IMAPSnoozeServer.claimLease))
            let dead = try await fixture.otherClient()
            _ = try await dead.select("Snoozed")
            let message = try #require(try await dead.fetchFlags().first)
            let modSeq = try #require(message.modSeq)
            #expect(try await dead.storeFlags([IMAPFlag(lease.keyword)], .replace, uids: UIDSet([message.uid]), unchangedSince: modSeq).isEmpty)
            await dead.logout()

            // Not due to anyone while the lease holds.
            #expect(try await one.wake(accountId: "acct-ada", now: now).emailIds.isEmpty)
            #expect(try await two.wake(accountId: "acct-ada", now: now.addingTimeInterval(IMAPSnoozeServer.claimLease - 60)).emailIds.isEmpty)
            #expect(try await ServerActionTests.serverMessageIds("Snoozed", fixture) == ["<c-0@example.com>"])
            // After it, it comes back once.
            let later = now.addingTimeInterval(IMAPSnoozeServer.claimLease + 1)
            async let first = one.wake(accountId: "acct-ada", now: later)
            async let second = two.wake(accountId: "acct-ada", now: later)
            let (woken, other) = try await (first, second)
            #expect((woken.emailIds + other.emailIds) == [TestMessage.emailId("c-0")])
            #expect(try await ServerActionTests.serverMessageIds("INBOX", fixture) == ["<c-0@example.com>"])
        }

        @Test("Issue 33: without CONDSTORE there is no claim: waking still moves due mail back once per client, as before (two at the same instant may both move it, docs/snooze.md)")
        func wakeWithoutCondStore() async throws {
            let (fixture, one, two, due) = try await Self.twoClients(["n-0"], capabilities: ["IMAP4rev1", "UIDPLUS", "MOVE", "IDLE", "NAMESPACE", "SPECIAL-USE"])
            let woken = try await one.wake(accountId: "acct-ada", now: Date())
            let other = try await two.wake(accountId: "acct-ada", now: Date())
            try await Self.expectWokenOnce(["n-0"], woken, other, due: due, fixture)
        }
    }
}
