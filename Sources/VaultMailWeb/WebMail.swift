import VaultMailCore
import VaultMailNotifications

/// Everything the web app reads and changes mail through: Core's use cases and ports, the
/// same ones the command line uses. It never reaches SQL or IMAP itself.
public struct WebMail: Sendable {
    public var fetchThreads: FetchThreadsUseCase
    /// Actions go to the server first (the daemon passes its IMAP-backed repository).
    public var actions: ManageThreadActionsUseCase
    public var markRead: MarkReadUseCase
    /// Reads: a thread, its emails, their attachments, folders.
    public var emails: any EmailRepository
    public var accounts: any AccountRepository
    public var attachments: ReadAttachmentUseCase
    public var changes: any MailChangeFeed
    public var settings: SettingsStore
    /// Where opened and read threads are reported, so notifications follow what is on screen.
    public var coordinator: NotificationSyncCoordinator
    public var clock: any WallClock
    /// Search over the local store (issue 14); nil where no index is at hand.
    public var search: SearchMailUseCase?

    public init(fetchThreads: FetchThreadsUseCase, actions: ManageThreadActionsUseCase, markRead: MarkReadUseCase,
                emails: any EmailRepository, accounts: any AccountRepository, attachments: ReadAttachmentUseCase,
                changes: any MailChangeFeed, settings: SettingsStore, coordinator: NotificationSyncCoordinator,
                clock: any WallClock = SystemWallClock()) {
        self.fetchThreads = fetchThreads
        self.actions = actions
        self.markRead = markRead
        self.emails = emails
        self.accounts = accounts
        self.attachments = attachments
        self.changes = changes
        self.settings = settings
        self.coordinator = coordinator
        self.clock = clock
    }
}
