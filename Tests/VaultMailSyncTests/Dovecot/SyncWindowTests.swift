import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 17: all mail, a window changed later, newest first.
    @Suite("Sync window")
    struct SyncWindowTests {
        static let day: TimeInterval = 86_400

        /// Appends `ages` (days before now, oldest first so UIDs follow the dates) as `w-<age>`.
        static func appendDated(_ ages: [Int], fixture: SyncFixture) async throws {
            let other = try await fixture.otherClient()
            let now = Date()
            for age in ages.sorted(by: >) {
                let date = now.addingTimeInterval(-Double(age) * day - 3600)
                try await other.append(TestMessage.make("w-\(age)", date: date), to: "INBOX", internalDate: date)
            }
            await other.logout()
        }

        static func setWindow(_ days: Int, fixture: SyncFixture) async throws {
            var account = try #require(try await fixture.accounts.getAccount(id: "acct-ada"))
            account.syncWindowDays = days
            try await fixture.accounts.updateAccount(account)
        }

        static func subjects(_ ages: [Int]) -> [String] { ages.map { "Message w-\($0)" }.sorted() }

        @Test("A 30-day window stores only its mail; widened to all mail, the next sync fetches the rest once; narrowed, nothing is deleted",
              .timeLimit(.minutes(2)))
        func widenToAllThenNarrow() async throws {
            let fixture = try await SyncFixture.start()
            let ages = [9000, 4000, 400, 60, 29, 3, 0]
            try await Self.appendDated(ages, fixture: fixture)

            let first = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(first.map(\.subject).sorted() == Self.subjects([29, 3, 0]))
            #expect(try await fixture.subjects(in: .inbox) == Self.subjects([29, 3, 0]))
            let inbox = try await fixture.folder(.inbox)
            #expect(inbox.historyWindowDays == 30)
            #expect(inbox.lastSyncedUID == 7)

            try await Self.setWindow(AppConstants.allMailSyncWindowDays, fixture: fixture)
            let older = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(older.map(\.subject).sorted() == Self.subjects([9000, 4000, 400, 60]), "mail of 25 years ago too")
            #expect(try await fixture.subjects(in: .inbox) == Self.subjects(ages))
            #expect(fixture.parser.count == ages.count, "each message fetched once")
            #expect(try fixture.emailCount() == ages.count)
            #expect(try await fixture.folder(.inbox).historyWindowDays == AppConstants.allMailSyncWindowDays)

            // Nothing more to reach: the next sync fetches nothing.
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").isEmpty)
            #expect(fixture.parser.count == ages.count)

            // Narrowed: stored mail stays, nothing is fetched; new mail still arrives.
            try await Self.setWindow(7, fixture: fixture)
            try fixture.deliver(TestMessage.make("after-narrowing"))
            let afterNarrowing = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(afterNarrowing.map(\.subject) == ["Message after-narrowing"])
            #expect(try fixture.emailCount() == ages.count + 1)
            #expect(fixture.parser.count == ages.count + 1)
        }

        @Test("A window widened from 30 to 500 days fetches only the mail between; all mail then the rest", .timeLimit(.minutes(2)))
        func widenByDays() async throws {
            let fixture = try await SyncFixture.start()
            try await Self.appendDated([2000, 400, 100, 10], fixture: fixture)
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").count == 1)
            try await Self.setWindow(500, fixture: fixture)
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").map(\.subject).sorted() == Self.subjects([400, 100]))
            #expect(try await fixture.folder(.inbox).historyWindowDays == 500)
            try await Self.setWindow(AppConstants.allMailSyncWindowDays, fixture: fixture)
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").map(\.subject) == ["Message w-2000"])
            #expect(fixture.parser.count == 4)
        }

        @Test("The initial sync goes newest first: interrupted after its first batch, the newest messages are the ones stored; it resumes without duplicates",
              .timeLimit(.minutes(2)))
        func initialNewestFirst() async throws {
            let failing = FailingSyncRepository.Control(failAfterBatches: 1)
            let fixture = try await SyncFixture.start(batchSize: 3) { FailingSyncRepository(base: $0, control: failing) }
            let ages = Array(0..<10)
            try await Self.appendDated(ages, fixture: fixture)

            let error = try await #require(throws: SyncError.self) { try await fixture.sync.syncAccount(accountId: "acct-ada") }
            #expect(error.newEmails.map(\.subject).sorted() == Self.subjects([0, 1, 2]), "the first batch holds the three newest")
            #expect(try await fixture.subjects(in: .inbox) == Self.subjects([0, 1, 2]))
            let inbox = try await fixture.folder(.inbox)
            #expect(inbox.lastSyncDate == nil && inbox.historyWindowDays == nil, "the pass is not complete")

            failing.disarm()
            let parsedBefore = fixture.parser.count
            let rest = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(rest.map(\.subject).sorted() == Self.subjects(Array(3..<10)))
            #expect(fixture.parser.count - parsedBefore == 7, "only what was not stored is fetched")
            #expect(try fixture.emailCount() == 10)
            #expect(try await fixture.folder(.inbox).historyWindowDays == 30)
        }

        @Test("A widening pass interrupted twice (a failed store, then a killed server) resumes, newest first, and completes without duplicates or losses",
              .timeLimit(.minutes(3)))
        func wideningInterrupted() async throws {
            // The first sync stores one batch (the two recent messages); the widening pass fails after two more.
            let control = FailingSyncRepository.Control(failAfterBatches: 3)
            let fixture = try await SyncFixture.start(batchSize: 4) { FailingSyncRepository(base: $0, control: control) }
            let old = Array(stride(from: 100, through: 2000, by: 100))  // 20 messages beyond the window
            try await Self.appendDated(old + [5, 1], fixture: fixture)
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").count == 2)
            let uidBefore = try await fixture.folder(.inbox).lastSyncedUID

            try await Self.setWindow(AppConstants.allMailSyncWindowDays, fixture: fixture)
            let error = try await #require(throws: SyncError.self) { try await fixture.sync.syncAccount(accountId: "acct-ada") }
            #expect(error.newEmails.map(\.subject).sorted() == Self.subjects(Array(stride(from: 100, through: 800, by: 100))),
                    "the two batches stored are the eight newest of the older mail")
            var inbox = try await fixture.folder(.inbox)
            #expect(inbox.historyWindowDays == 30, "the pass is not complete")
            #expect(inbox.lastSyncedUID == uidBefore)

            // Mail arriving meanwhile, then the server dies after the next batch.
            try fixture.deliver(TestMessage.make("meanwhile"))
            control.disarm()
            let server = fixture.server
            control.afterBatch = { count in if count == 4 { server.kill() } }
            await #expect(throws: SyncError.self) { try await fixture.sync.syncAccount(accountId: "acct-ada") }
            let storedAfterKill = try fixture.emailCount()
            #expect(storedAfterKill >= 14 && storedAfterKill < 23, "one batch, perhaps the one fetched ahead, before the server died")
            // Newest first: "meanwhile" (the highest UID) came in the first batch of this pass.
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("meanwhile")) != nil)

            try await server.restart()
            control.afterBatch = nil
            _ = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(try await fixture.subjects(in: .inbox) == (Self.subjects(old + [5, 1]) + ["Message meanwhile"]).sorted())
            #expect(try fixture.emailCount() == 23)
            inbox = try await fixture.folder(.inbox)
            #expect(inbox.historyWindowDays == AppConstants.allMailSyncWindowDays)
            #expect(inbox.lastSyncedUID == 23)
            #expect(inbox.lastSyncDate != nil)
            // Complete: nothing is fetched again.
            let parsed = fixture.parser.count
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").isEmpty)
            #expect(fixture.parser.count == parsed)
        }
    }
}
