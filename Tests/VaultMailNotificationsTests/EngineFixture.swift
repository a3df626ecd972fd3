import Foundation
import VaultMailCore
import VaultMailNotifications
import VaultMailTesting

/// The notification engine wired to doubles: a mock repository with one account's folders,
/// a recording centre, in-memory settings and ledger, and a clock tests set.
@MainActor
final class EngineFixture {
    let repository = MockEmailRepository()
    let center = MockNotificationCenter()
    let settings = SettingsStore(storage: InMemorySettingsStorage())
    let clock = FixedClock(MailFixtures.referenceDate)
    let ledger = InMemoryNotificationLedger()
    let compose = RecordingComposeEmail()
    let accounts = InMemoryAccountRepository([MailFixtures.account()])
    /// The stored sources the VIP check reads `Authentication-Results` from (issue 33).
    let sources = InMemoryMessageSources()
    let folders = MailFixtures.standardFolders(accountId: "acct-work")
    let service: NotificationService
    /// What a reply contains, as the handler asks it.
    let composition: Compose
    let handler: NotificationResponseHandler
    let coordinator: NotificationSyncCoordinator

    init(firstLaunchDone: Bool = true) async throws {
        let pipeline = NotificationFilterPipeline.standard(
            settings: settings, clock: clock, verification: SenderVerification(sources: sources, accounts: accounts))
        service = NotificationService(center: center, settingsStore: settings, emailRepository: repository,
                                      filterPipeline: pipeline, ledger: ledger, clock: clock)
        let coordinator = NotificationSyncCoordinator(notificationService: service)
        self.coordinator = coordinator
        let conversations = Conversations(emails: repository, settings: settings) { threadId in
            await coordinator.withdrawNotifications(forThreadId: threadId)
        }
        let settings = settings
        composition = Compose(emails: repository, accounts: accounts, clock: clock,
                                  signature: { id in await MainActor.run { settings.signatures[id] } }, sizeLimit: { _ in nil })
        handler = NotificationResponseHandler(conversations: conversations, composition: composition, composeEmail: compose,
                                              notificationService: service)
        handler.coordinator = coordinator
        center.setDelegate(handler)
        try await repository.saveFolders(folders)
        await service.registerCategories()
        if firstLaunchDone { service.markFirstLaunchComplete() }
    }

    /// An email received `minutesAgo` before the clock's now, stored in the mock repository
    /// linked to folders of `types`.
    @discardableResult
    func email(
        _ number: Int, in types: [FolderType] = [.inbox], minutesAgo: Double = 1, thread: String? = nil,
        from: String = "sender@example.com", fromName: String? = "Sender", subject: String? = nil,
        snippet: String? = nil, category: AICategory? = nil, spamFlagged: Bool = false, isRead: Bool = false,
        account: String = "acct-work"
    ) async throws -> Email {
        var email = MailFixtures.email(
            accountId: account, number: number, threadId: thread, from: from, fromName: fromName, subject: subject,
            date: clock.now.addingTimeInterval(-minutesAgo * 60), isRead: isRead, category: category, snippet: snippet)
        email.spamFlagged = spamFlagged
        let stored = try await repository.saveEmails([MailFixtures.incoming(email, in: types.map { folders.of($0) })])
        return stored.first ?? email
    }

    func emails(_ numbers: Range<Int>, minutesAgo: (Int) -> Double = { _ in 1 }) async throws -> [Email] {
        var result: [Email] = []
        for n in numbers { result.append(try await email(n, minutesAgo: minutesAgo(n))) }
        return result
    }

    /// Hands the mail to the engine; returns the thread ids of the in-app banners it decided on.
    @discardableResult
    func process(_ emails: [Email], background: Bool = false, activeFolder: String? = nil) async -> [String] {
        await coordinator.didSyncNewEmails(emails, fromBackground: background, activeFolderType: activeFolder).map(\.userInfo.emailId)
    }

    var postedEmailIds: [String] { center.addedRequests.map { $0.content.userInfo.emailId } }

    func decision(_ email: Email) async throws -> NotificationDecision? {
        try await ledger.decision(forEmailId: email.id)
    }
}

/// An email as the filters see it: account "acct-1", with the folder types, sender, thread,
/// category and spam tag given.
func filterTestEmail(types: Set<FolderType>, from: String, thread: String, category: String?, spam: Bool) -> Email {
    var email = MailFixtures.email(accountId: "acct-1", number: 1, threadId: thread, from: from)
    email.folderTypes = types
    email.aiCategory = category
    email.spamFlagged = spam
    return email
}
