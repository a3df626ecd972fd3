import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 33 with issue 29's queue: snoozing while the server cannot be reached.
    @Suite("Offline snooze: shown here at once, kept, replayed on the server once it answers (issue 33)")
    struct OfflineSnoozeTests {
        @Test("Issue 33: snooze with the server stopped moves the conversation to Snoozed here with its time at once, survives in the queue, and is replayed on the server (the Snoozed mailbox and its keyword) once it answers")
        func snoozeOffline() async throws {
            let (fixture, graph, _) = try await OfflineTriageTests.start(["z-0", "z-1"], folders: ["Snoozed"])
            let database = graph.database
            let repository = IMAPEmailRepository(
                local: graph.store, syncStore: GRDBSyncRepository(database: database), accounts: GRDBAccountRepository(database: database),
                connections: IMAPConnectionPool(credentials: FixedCredentialProvider(["acct-ada": SyncFixture.password]),
                                                connectTimeout: .seconds(10), readTimeout: .seconds(30)),
                pendingChanges: graph.queue)
            let times = GRDBSnoozeRepository(database: database)
            let server = IMAPSnoozeServer(local: graph.store, syncStore: GRDBSyncRepository(database: database),
                                          accounts: GRDBAccountRepository(database: database), connections: repository.connections, times: times)
            let snooze = Snooze(emails: repository, server: server, store: times, clock: SystemWallClock())
            let thread = try await graph.thread("z-0")
            try await fixture.server.stop()

            let time = SnoozeTime.until(Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 86400).rounded(.down)))
            let result = await snooze.snooze([thread], until: time)
            #expect(result.failed.isEmpty, "\(result.failed.map { "\($0.error)" })")
            #expect(result.kept.map(\.action) == [.snooze(until: time)])
            #expect(result.kept.first?.summary == "Snoozed “Subject z-0”")
            // Here at once: in Snoozed with its time, out of the inbox.
            #expect(try await graph.folders(of: "z-0") == [.snoozed])
            #expect(try await snooze.snoozed().map(\.time) == [time])

            try await fixture.server.restart()
            try await graph.sync.syncAccount(accountId: "acct-ada")
            try await waitUntil("the server's Snoozed mailbox holding it") {
                try await ServerActionTests.serverMessageIds("Snoozed", fixture) == ["<z-0@example.com>"]
            }
            #expect(try await ServerActionTests.serverMessageIds("INBOX", fixture) == ["<z-1@example.com>"])
            let flags = try await ServerActionTests.serverFlags("Snoozed", fixture)
            #expect(flags.values.contains { $0.contains(IMAPFlag(time.keyword)) }, "\(flags)")
            #expect(try await graph.queue.pending(accountId: nil).isEmpty)
            #expect(try await snooze.snoozed().map(\.time) == [time])

            // Snoozed again offline, to an earlier time: on replay its keyword replaces the old one.
            try await fixture.server.stop()
            let earlier = SnoozeTime.until(Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded(.down)))
            let again = await snooze.snooze([thread], until: earlier)
            #expect(again.failed.isEmpty && again.kept.count == 1, "\(again.failed.map { "\($0.error)" })")
            try await fixture.server.restart()
            try await graph.sync.syncAccount(accountId: "acct-ada")
            try await waitUntil("the new keyword alone on the server") {
                let keywords = try await ServerActionTests.serverFlags("Snoozed", fixture).values.flatMap { $0 }.filter { SnoozeTime.isKeyword($0.name) }
                return keywords == [IMAPFlag(earlier.keyword)]
            }
            #expect(try await graph.queue.pending(accountId: nil).isEmpty)
        }
    }
}
