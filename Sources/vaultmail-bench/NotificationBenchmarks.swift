import Foundation
import VaultMailApp
import VaultMailCore
import VaultMailNotifications
import VaultMailStore
import VaultMailTesting

/// `vaultmail-bench notifications`: the engine's hot paths against the spec's limits
/// (50 ms, 1 ms, 5 ms, 100 ms, 0.1 ms). The end-to-end figure runs the real composition
/// (`AppDependencies`) over a file store of 50K emails, posting into the recording centre.
@MainActor
enum NotificationBenchmarks {
    static func run() async throws {
        let clock = FixedClock(MailFixtures.referenceDate)
        let settings = SettingsStore(storage: InMemorySettingsStorage())
        settings.addVIPContact("boss@example.com")
        settings.toggleMuteThread(threadId: "muted")
        settings.quietHoursEnabled = true
        try settings.setQuietHours(start: 60, end: 120)
        let pipeline = NotificationFilterPipeline.standard(settings: settings, clock: clock)
        let batch = (0..<50).map { n -> Email in
            var email = MailFixtures.email(accountId: "acct-bench", number: n, date: clock.now.addingTimeInterval(-Double(n)))
            email.folderTypes = [.inbox]
            return email
        }
        print("# notifications: 8 filters (VIP, account, spam, folder, muted, category, quiet hours, focus)")

        let pipelineTime = await median(runs: 200) { _ = await pipeline.filter(batch) }
        Measure.report("pipeline-50", pipelineTime, "ms", n: 50)
        let quiet = QuietHoursFilter(settings: settings, clock: clock)
        let single = await median(runs: 2000) { _ = await quiet.shouldNotify(for: batch[0]) }
        Measure.report("filter-single", single, "ms", n: 1)
        let build = await median(runs: 2000) { _ = NotificationContentBuilder.request(for: batch[0]) }
        Measure.report("content-build", build, "ms", n: 1)

        var dedup = DeliveredNotificationIds(capacity: AppConstants.maxDeliveredNotificationIds)
        for n in 0..<10_000 { dedup.insert("email-\(n)") }
        let probes = (0..<1000).map { "email-\($0 * 17)" }
        let dedupTime = await median(runs: 200) { for probe in probes { _ = dedup.contains(probe) } } / Double(probes.count)
        Measure.report("dedup-lookup", dedupTime, "ms", n: 10_000)

        try await processNewEmails(clock: clock)
    }

    /// 50 new emails through the whole engine, with 50K emails in the store behind the badge.
    private static func processNewEmails(clock: FixedClock) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-bench-notif-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase.open(path: directory.appendingPathComponent("store.sqlite").path)
        let account = MailFixtures.account(name: "bench")
        try await GRDBAccountRepository(database: database).addAccount(account)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let emails = GRDBEmailRepository(database: database)
        try await emails.saveFolders(folders)
        for start in stride(from: 0, to: 50_000, by: 1000) {
            try await emails.saveEmails((start..<start + 1000).map { n in
                MailFixtures.incoming(MailFixtures.email(accountId: account.id, number: n, threadId: "t\(n / 3)",
                                                         date: clock.now.addingTimeInterval(-86_400 - Double(n)),
                                                         isRead: n % 10 != 0), in: [folders.of(.inbox)])
            })
        }
        var round = 0
        var samples: [Double] = []
        let timer = ContinuousClock()
        for _ in 0..<21 {
            round += 1
            let center = MockNotificationCenter()
            let app = await AppDependencies(database: database, center: center, composeEmail: RecordingComposeEmail(), clock: clock)
            app.notificationSyncCoordinator.markFirstLaunchComplete()
            let base = 100_000 + round * 50
            let batch = try await emails.saveEmails((base..<base + 50).map { n in
                MailFixtures.incoming(MailFixtures.email(accountId: account.id, number: n, date: clock.now.addingTimeInterval(-Double(n - base))),
                                      in: [folders.of(.inbox)])
            })
            let elapsed = await timer.measure {
                await app.notificationSyncCoordinator.didSyncNewEmails(batch, fromBackground: false, activeFolderType: nil)
            }
            precondition(center.addedRequests.count == 10, "the engine must post 10 banners for 50 new emails")
            if round > 1 { samples.append(elapsed.millis) }
        }
        Measure.report("process-new-emails-50", Measure.median(samples), "ms", n: 50_000)
    }

    private static func median(runs: Int, _ body: () async -> Void) async -> Double {
        await body()
        let timer = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<runs { samples.append(await timer.measure { await body() }.millis) }
        return Measure.median(samples)
    }
}

extension Duration {
    var millis: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}
