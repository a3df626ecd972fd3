import VaultMailCore
import VaultMailNotifications

/// Everything the web app reads and changes mail through: Core's use cases and ports, the
/// same ones the command line uses. It never reaches SQL or IMAP itself.
public struct WebMail: Sendable {
    public var fetchThreads: FetchThreadsUseCase
    /// Opening conversations and acting on them, server first (the daemon passes its
    /// IMAP-backed repository as `emails`): the rules the command line and the daemon share.
    public var conversations: Conversations
    /// Reads: a thread, its emails, their attachments, folders.
    public var emails: any EmailRepository
    public var accounts: any AccountRepository
    public var attachments: ReadAttachmentUseCase
    public var changes: any MailChangeFeed
    public var settings: SettingsStore
    /// Where opened and read threads are reported, so notifications follow what is on screen.
    public var coordinator: NotificationSyncCoordinator
    public var clock: any WallClock
    /// Drafts, sending with the undo window, the outbox (the same service the command line uses).
    public var compose: ComposeEmailService
    /// What an answer or a forward contains and the size limit: the rules the command line shares.
    public var composition: Compose
    /// Recipient suggestions.
    public var contacts: ContactDirectory
    /// The HTML alternative of a body written in Markdown.
    public var markdown: any MarkdownRenderer
    /// The notification engine's decisions ("why did it (not) notify").
    public var ledger: any NotificationLedger
    /// Adding, changing and removing accounts: the rules the command line shares.
    public var accountService: Accounts
    /// Switching notifications on and off, VIPs, muted conversations: the rules the command line shares.
    public var notificationSettings: NotificationSettings
    /// Trying an account's servers, and the OAuth2 sign-in in this browser.
    public var administration: any AccountAdministration
    /// The desktop's notification server, asked now.
    public var notificationServer: @Sendable () async -> NotificationServerStatus
    /// Search over the local store (issue 14); nil where no index is at hand.
    public var search: SearchMailUseCase?
    /// Search by meaning (issue 15, AC-A-07); nil where no sentence model can be built.
    public var semanticSearch: SemanticSearchUseCase?
    /// The on-device models: Settings → On-device AI and the onboarding step (AC-A-03, AC-A-08); nil where none are managed.
    public var aiModels: (any AIModelAdministration)?
    /// Categories: a conversation's category and why, and the user's corrections (issue 15, AC-A-04); nil where none are kept.
    public var categories: (any CategoryRepository)?
    /// Suggested replies to a conversation's latest message (issue 16, AC-A-05); nil where none are written.
    public var replySuggestions: SmartReplyUseCase?
    /// Conversation summaries (issue 16, AC-A-06); nil where none are written.
    public var summaries: SummarizeThreadUseCase?
    /// The summaries kept with their conversations, read to show one that new mail made stale
    /// (with Refresh) while the use case answers only with current ones.
    public var storedSummaries: (any ThreadSummaryRepository)?
    /// Whether the machine is idle: conversations are summarized when opened only then (issue 35).
    public var idleness = MachineIdleness()

    public init(fetchThreads: FetchThreadsUseCase,
                emails: any EmailRepository, accounts: any AccountRepository, attachments: ReadAttachmentUseCase,
                changes: any MailChangeFeed, settings: SettingsStore, coordinator: NotificationSyncCoordinator,
                compose: ComposeEmailService, contacts: ContactDirectory, markdown: any MarkdownRenderer,
                ledger: any NotificationLedger, accountService: Accounts, notificationSettings: NotificationSettings,
                administration: any AccountAdministration, notificationServer: @escaping @Sendable () async -> NotificationServerStatus,
                clock: any WallClock = SystemWallClock()) {
        self.ledger = ledger
        self.accountService = accountService
        self.notificationSettings = notificationSettings
        self.administration = administration
        self.notificationServer = notificationServer
        self.compose = compose
        self.contacts = contacts
        self.markdown = markdown
        self.fetchThreads = fetchThreads
        self.emails = emails
        self.accounts = accounts
        self.attachments = attachments
        self.changes = changes
        self.settings = settings
        self.coordinator = coordinator
        self.clock = clock
        conversations = Conversations(emails: emails, settings: settings) { [coordinator] threadId in
            await coordinator.didMarkThreadRead(threadId: threadId)
        }
        composition = Compose(emails: emails, accounts: accounts, settings: settings, sending: compose, clock: clock)
    }
}
