import Foundation
import VaultMailApp
import VaultMailCore
import VaultMailDesktop
import VaultMailNotifications
import VaultMailStore
import VaultMailTesting

/// `vaultmail-bench desktop`: posting over a real private `dbus-daemon` to the recording
/// notification server (a Python process: its own overhead is inside these figures).
@MainActor
enum DesktopBenchmarks {
    static func run() async throws {
        let bus = try await DBusDaemon.start()
        defer { bus.stop() }
        let server = try await RecordingNotificationServer.start(on: bus)
        defer { server.stop() }
        var configuration = DBusNotificationCenter.Configuration()
        configuration.busAddress = bus.address
        print("# desktop: private dbus-daemon, recording server in Python (python3-dbus)")

        let center = DBusNotificationCenter(configuration: configuration)
        var number = 0
        func request() -> NotificationRequest {
            number += 1
            return NotificationContentBuilder.request(for: MailFixtures.email(accountId: "acct-bench", number: number))
        }
        try await center.add(request())
        let timer = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<300 {
            let next = request()
            samples.append(try await timer.measure { try await center.add(next) }.millis)
        }
        Measure.report("notify-roundtrip", Measure.median(samples), "ms", n: samples.count)

        try await processNewEmails(configuration: configuration)
    }

    /// The engine's whole batch of 50 new emails (10 banners) into the bus, until the last
    /// `Notify` is answered.
    private static func processNewEmails(configuration: DBusNotificationCenter.Configuration) async throws {
        let clock = FixedClock(MailFixtures.referenceDate)
        let database = try AppDatabase.inMemory()
        let account = MailFixtures.account(name: "bench")
        try await GRDBAccountRepository(database: database).addAccount(account)
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let emails = GRDBEmailRepository(database: database)
        try await emails.saveFolders(folders)
        let center = DBusNotificationCenter(configuration: configuration)
        let app = await AppDependencies(database: database, center: center, composeEmail: RecordingComposeEmail(), clock: clock)
        app.notificationSyncCoordinator.markFirstLaunchComplete()
        let timer = ContinuousClock()
        var samples: [Double] = []
        for round in 0..<21 {
            let base = 1000 + round * 50
            let batch = try await emails.saveEmails((base..<base + 50).map { n in
                MailFixtures.incoming(MailFixtures.email(accountId: account.id, number: n, date: clock.now.addingTimeInterval(-Double(n - base))),
                                      in: [folders.of(.inbox)])
            })
            let elapsed = await timer.measure {
                await app.notificationSyncCoordinator.didSyncNewEmails(batch, fromBackground: false, activeFolderType: nil)
            }
            precondition(center.lastError == nil, "posting failed: \(center.lastError!)")
            if round > 0 { samples.append(elapsed.millis) }
        }
        Measure.report("process-new-emails-50-dbus", Measure.median(samples), "ms", n: 50)
    }
}
