import VaultMailCore
import VaultMailNotifications

/// Everything the web app reads and changes mail through: Core's application services and
/// use cases, the same ones the command line uses. It holds no repository and no
/// `SettingsStore` (issue 28); `AppDependencies.webMail` builds it.
public struct WebMail: Sendable {
    /// Folders, lists of conversations, unread counts, the outbox, one conversation's or
    /// message's header data: the reads the command line shares.
    public var mailboxes: Mailboxes
    /// Opening conversations and acting on them, server first: the rules the command line and
    /// the daemon share.
    public var conversations: Conversations
    public var attachments: ReadAttachmentUseCase
    public var changes: any MailChangeFeed
    /// Undo delay, mark-read-on-open, remote images, theme, density, summaries on opening.
    public var preferences: Preferences
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
    public var notificationHistory: NotificationHistory
    /// Adding, changing and removing accounts, the accounts and their signatures: the rules the command line shares.
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
    public var categories: Categories?
    /// Suggested replies to a conversation's latest message (issue 16, AC-A-05); nil where none are written.
    public var replySuggestions: SmartReplyUseCase?
    /// Conversation summaries (issue 16, AC-A-06), current or stale; nil where none are written.
    public var summaries: SummarizeThreadUseCase?
    /// Unsubscribing from lists and newsletters, and the senders of bulk mail (issue 33); nil where none is offered.
    public var unsubscribe: Unsubscribe?
    /// Snoozing conversations on the server and the Snoozed box's wake times (issue 33); nil where none is offered.
    public var snooze: Snooze?
    /// Follow-up reminders on sent mail (issue 33); nil where none is offered.
    public var followUp: FollowUp?
    /// Whether the machine is idle: conversations are summarized when opened only then (issue 35).
    public var idleness = MachineIdleness()
    /// The tracker shield and its counts (issue 30); nil: no trackers are removed (images stay
    /// blocked unless the user lets them in, as before).
    public var privacy: Privacy?
    /// What VaultMail keeps on this machine, and clearing the image cache (Settings → Storage,
    /// issue 31); nil: no Storage section.
    public var storage: Storage?
    /// The Autocrypt Setup Message (issue 32): Settings → Encryption sends one, and a received
    /// one offers "Import this key"; nil where VaultMail writes no OpenPGP.
    public var autocryptSetup: AutocryptSetup?

    public init(mailboxes: Mailboxes, conversations: Conversations, attachments: ReadAttachmentUseCase, changes: any MailChangeFeed,
                preferences: Preferences, coordinator: NotificationSyncCoordinator, compose: ComposeEmailService, composition: Compose,
                contacts: ContactDirectory, markdown: any MarkdownRenderer, notificationHistory: NotificationHistory,
                accountService: Accounts, notificationSettings: NotificationSettings, administration: any AccountAdministration,
                notificationServer: @escaping @Sendable () async -> NotificationServerStatus, clock: any WallClock = SystemWallClock()) {
        self.mailboxes = mailboxes
        self.conversations = conversations
        self.attachments = attachments
        self.changes = changes
        self.preferences = preferences
        self.coordinator = coordinator
        self.compose = compose
        self.composition = composition
        self.contacts = contacts
        self.markdown = markdown
        self.notificationHistory = notificationHistory
        self.accountService = accountService
        self.notificationSettings = notificationSettings
        self.administration = administration
        self.notificationServer = notificationServer
        self.clock = clock
    }
}
