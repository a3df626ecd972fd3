import Foundation
import VaultMailCore
import VaultMailNotifications
import VaultMailStore

/// The composition root: builds the object graph in the order of notifications-spec §5.2,
/// so the tool, the daemon and the tests run the same engine.
@MainActor
public final class AppDependencies {
    public let database: AppDatabase
    public let emailRepository: any EmailRepository
    public let accountRepository: any AccountRepository
    public let settingsStore: SettingsStore
    public let filterPipeline: NotificationFilterPipeline
    public let notificationLedger: any NotificationLedger
    public let notificationService: NotificationService
    /// Opening conversations and acting on them over this graph's repository (server first
    /// when it is the IMAP-backed one), withdrawing their notifications through the engine.
    /// The notification buttons and a click on a notification go through it.
    public let conversations: Conversations
    public let notificationResponseHandler: NotificationResponseHandler
    public let notificationSyncCoordinator: NotificationSyncCoordinator
    public let notificationCenter: any NotificationCenterProviding
    /// OpenPGP (issue 32), when this graph reads encrypted mail: `close()` it when done.
    public let openPGPEngine: (any OpenPGPEngine)?

    /// Builds the graph over `database`, posting through `center`, replying through
    /// `composeEmail`. `emailRepository` defaults to the local store; the sync layer passes
    /// its server-backed repository. `settingsStore` defaults to the database's settings; pass
    /// the one parts built earlier (sending, the centre) already read.
    public init(
        database: AppDatabase,
        center: any NotificationCenterProviding,
        composeEmail: any ComposeEmailUseCase,
        emailRepository: (any EmailRepository)? = nil,
        settingsStore: SettingsStore? = nil,
        clock: any WallClock = SystemWallClock(),
        openPGPEngine: (any OpenPGPEngine)? = nil
    ) async {
        self.database = database
        self.openPGPEngine = openPGPEngine
        let emails = emailRepository ?? GRDBEmailRepository(database: database)
        self.emailRepository = emails
        accountRepository = GRDBAccountRepository(database: database)
        notificationCenter = center

        // 1. Settings
        let settings = settingsStore ?? SettingsStore(storage: GRDBSettingsStorage(database: database))
        self.settingsStore = settings
        // 2–3. Filters and the pipeline
        //    (a VIP breaks through only when the user's server authenticated the sender: issue 33)
        filterPipeline = NotificationFilterPipeline.standard(
            settings: settings, clock: clock,
            verification: SenderVerification(sources: GRDBEmailRepository(database: database), accounts: accountRepository))
        // 4. The service
        notificationLedger = GRDBNotificationLedger(database: database)
        notificationService = NotificationService(
            center: center, settingsStore: settings, emailRepository: emails,
            filterPipeline: filterPipeline, ledger: notificationLedger, clock: clock)
        // 5. The coordinator (before the handler since issue 28: the conversations service the
        //    handler acts through withdraws notifications through it, as the web app's does)
        let coordinator = NotificationSyncCoordinator(notificationService: notificationService)
        notificationSyncCoordinator = coordinator
        conversations = Conversations(emails: emails, settings: settings, withdrawNotifications: { threadId in
            await coordinator.withdrawNotifications(forThreadId: threadId)
        }, openPGP: openPGPEngine.map { Self.openPGPReading(engine: $0, database: database) })
        // 6. The response handler, acting through the conversations service and writing a
        //    reply as the tool and the web composer do (`Compose`; a reply typed into a
        //    notification carries no attachment, so no size limit is asked); the coordinator
        //    takes its tap navigation
        let composition = Compose(
            emails: emails, accounts: accountRepository, clock: clock,
            signature: { id in await MainActor.run { settings.signatures[id] } },
            sizeLimit: { _ in nil })
        notificationResponseHandler = NotificationResponseHandler(
            conversations: conversations, composition: composition, composeEmail: composeEmail,
            notificationService: notificationService)
        notificationResponseHandler.coordinator = coordinator
        // 7. The handler receives the centre's responses
        center.setDelegate(notificationResponseHandler)
        // 8. Categories, then launch housekeeping: dedup set, muted threads (E-21), badge
        await notificationService.registerCategories()
        await notificationService.rebuildDeliveredNotificationIds()
        await notificationService.cleanUpMutedThreads()
        await notificationService.updateBadgeCount()
    }
}

extension AppDependencies {
    /// Follow-up reminders on sent mail (issue 33), over this process's settings.
    public func followUp(clock: any WallClock = SystemWallClock()) -> FollowUp {
        FollowUp(settings: settingsStore, emails: emailRepository, accounts: accountRepository, clock: clock)
    }
}
