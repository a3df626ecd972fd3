import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailNotifications
import VaultMailStore
import VaultMailTesting

@MainActor
@Suite("AppDependencies and the durable ledger (AC-N-01, NOTIF-17)")
struct CompositionTests {
    @Test("AC-N-01: AppDependencies registers the category, sets the delegate, and wires the engine")
    func composition() async throws {
        let database = try AppDatabase.inMemory()
        let center = MockNotificationCenter()
        let app = await AppDependencies(database: database, center: center, composeEmail: RecordingComposeEmail(),
                                        clock: FixedClock(MailFixtures.referenceDate))
        #expect(center.registeredCategories == [NotificationContentBuilder.emailCategory])
        #expect(center.delegate === app.notificationResponseHandler)
        #expect(app.notificationResponseHandler.coordinator === app.notificationSyncCoordinator)
        #expect(app.notificationService.isFirstLaunch)
        #expect(center.badgeHistory == [0])
    }

    @Test("NOTIF-17: an email notified before a restart is never announced again, even by a fresh centre")
    func ledgerSurvivesRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let clock = FixedClock(MailFixtures.referenceDate)
        let account = MailFixtures.account()
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let email = MailFixtures.email(accountId: account.id, number: 1, date: clock.now.addingTimeInterval(-10))

        var saved: Email
        do {
            let database = try AppDatabase.open(path: path)
            try await GRDBAccountRepository(database: database).addAccount(account)
            let emails = GRDBEmailRepository(database: database)
            try await emails.saveFolders(folders)
            saved = try await emails.saveEmails([MailFixtures.incoming(email, in: [folders.of(.inbox)])])[0]
            let center = MockNotificationCenter()
            let app = await AppDependencies(database: database, center: center, composeEmail: RecordingComposeEmail(), clock: clock)
            app.notificationSyncCoordinator.markFirstLaunchComplete()
            await app.notificationSyncCoordinator.didSyncNewEmails([saved], fromBackground: false, activeFolderType: nil)
            #expect(center.addedRequests.count == 1)
        }
        let database = try AppDatabase.open(path: path)
        let center = MockNotificationCenter()
        let app = await AppDependencies(database: database, center: center, composeEmail: RecordingComposeEmail(), clock: clock)
        app.notificationSyncCoordinator.markFirstLaunchComplete()
        await app.notificationSyncCoordinator.didSyncNewEmails([saved], fromBackground: false, activeFolderType: nil)
        #expect(center.addedRequests.isEmpty)
        let decision = try await app.notificationLedger.decision(forEmailId: saved.id)
        #expect(decision?.outcome == .notified)
        #expect(center.currentBadgeCount == 1)
    }

    @Test("The ledger keeps a notified decision, replaces others, is bounded, and goes with its account")
    func ledgerRules() async throws {
        let database = try AppDatabase.inMemory()
        try await GRDBAccountRepository(database: database).addAccount(MailFixtures.account())
        let ledger = GRDBNotificationLedger(database: database, capacity: 5)
        func decision(_ n: Int, _ outcome: NotificationOutcome, _ rule: NotificationRule) -> NotificationDecision {
            NotificationDecision(email: MailFixtures.email(accountId: "acct-work", number: n), decidedAt: MailFixtures.referenceDate,
                                 outcome: outcome, rule: rule)
        }
        try await ledger.record([decision(1, .notified, .allFilters), decision(2, .suppressed, .recency)])
        try await ledger.record([decision(1, .suppressed, .duplicate), decision(2, .notified, .vip)])
        #expect(try await ledger.decision(forEmailId: decision(1, .notified, .vip).emailId)?.rule == .allFilters)
        #expect(try await ledger.decision(forEmailId: decision(2, .notified, .vip).emailId)?.rule == .vip)
        try await ledger.record((3..<12).map { decision($0, .suppressed, .spam) })
        let recent = try await ledger.recentDecisions(limit: 100)
        #expect(recent.count == 5)
        #expect(recent.first?.emailId == decision(11, .notified, .vip).emailId)
        try await GRDBAccountRepository(database: database).removeAccount(id: "acct-work")
        #expect(try await ledger.recentDecisions(limit: 100).isEmpty)
    }
}
