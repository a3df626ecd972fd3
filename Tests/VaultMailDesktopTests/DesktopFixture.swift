import Foundation
import VaultMailApp
import VaultMailCore
import VaultMailDesktop
import VaultMailNotifications
import VaultMailStore
import VaultMailTesting

/// The real engine (`AppDependencies` over an in-memory store) posting through
/// `DBusNotificationCenter` to the recording server on a private `dbus-daemon`.
@MainActor
final class DesktopFixture {
    let bus: DBusDaemon
    var server: RecordingNotificationServer?
    let center: DBusNotificationCenter
    let app: AppDependencies
    let compose = RecordingComposeEmail()
    let clock = FixedClock(MailFixtures.referenceDate)
    let folders: [Folder]
    let emails: GRDBEmailRepository
    let configuration: DBusNotificationCenter.Configuration

    init(capabilities: [String] = ["actions", "body", "body-markup", "inline-reply", "persistence"],
         startServer: Bool = true, hang: Bool = false, timeout: Duration = .seconds(30), rememberedIn: URL? = nil) async throws {
        bus = try await DBusDaemon.start()
        if startServer { server = try await RecordingNotificationServer.start(on: bus, capabilities: capabilities, hang: hang) }
        var configuration = DBusNotificationCenter.Configuration()
        configuration.busAddress = bus.address
        configuration.callTimeout = timeout
        configuration.rememberedIn = rememberedIn
        self.configuration = configuration
        let database = try AppDatabase.inMemory()
        try await GRDBAccountRepository(database: database).addAccount(MailFixtures.account())
        emails = GRDBEmailRepository(database: database)
        folders = MailFixtures.standardFolders(accountId: "acct-work")
        try await emails.saveFolders(folders)
        center = DBusNotificationCenter(configuration: configuration)
        app = await AppDependencies(database: database, center: center, composeEmail: compose, clock: clock)
        app.notificationSyncCoordinator.markFirstLaunchComplete()
    }

    /// Stores an email received `secondsAgo` before now in the inbox.
    func email(_ number: Int, thread: String? = nil, from: String = "ada@example.com", fromName: String? = "Ada Lovelace",
               subject: String? = nil, snippet: String? = nil, secondsAgo: Double = 30) async throws -> Email {
        var email = MailFixtures.email(accountId: "acct-work", number: number, threadId: thread, from: from, fromName: fromName,
                                       subject: subject, date: clock.now.addingTimeInterval(-secondsAgo), snippet: snippet)
        email.references = nil
        return try await emails.saveEmails([MailFixtures.incoming(email, in: [folders.of(.inbox)])])[0]
    }

    func sync(_ emails: [Email]) async {
        await app.notificationSyncCoordinator.didSyncNewEmails(emails, fromBackground: false, activeFolderType: nil)
    }

    /// The server id of the latest `Notify` (waiting for the `count`-th).
    func notifyCall(_ count: Int = 1) async throws -> [String: Any] {
        try await server!.waitForCall("Notify", count: count)
    }

    /// Waits until the response handler has handled `count` responses in all.
    func waitForOutcome(timeout: Duration = .seconds(30)) async throws -> NotificationActionOutcome {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while app.notificationResponseHandler.lastOutcome == nil {
            guard ContinuousClock.now < deadline else { throw ChildProcess.Failure(description: "no response reached the handler") }
            try await Task.sleep(for: .milliseconds(5))
        }
        return app.notificationResponseHandler.lastOutcome!
    }
}
