import VaultMailCore
import VaultMailMarkdown
import VaultMailMIME
import VaultMailNotifications
import VaultMailStore
import VaultMailWeb

extension AppDependencies {
    /// What the web app works through: this graph's use cases (actions reach the server first
    /// when the graph was built over the IMAP-backed repository), attachments read out of the
    /// stored sources, the store's change feed, and `compose` for writing (the daemon's sending).
    /// `notificationServer` tells the settings page about the desktop's notification server;
    /// `textEmbedder`, the sentence model search by meaning reads with; `textGenerator`, the
    /// model summaries and suggested replies are written with (without one, summaries are the
    /// conversation's key sentences and replies come from the user's past ones).
    /// `notificationPermission` is asked before notifications are switched on (this graph's
    /// engine when nil); `oauthConfiguration` names the providers a removed sign-in is revoked at.
    /// `trackerShield`: removes trackers from mail (issue 30; the daemon loads it from the packaged
    /// lists), counted per message in the store; nil removes none. `onSignedInAgain` is told an
    /// account's id after its "Sign in again" (the daemon tries the account at once, issue 34).
    public func webMail(
        compose: ComposeEmailService, credentials: any CredentialStore, accessTokens: OAuthAccessTokens? = nil, textEmbedder: (any TextEmbedder)? = nil,
        textGenerator: (any TextGenerator)? = nil, notificationPermission: (any NotificationPermission)? = nil,
        oauthConfiguration: OAuthConfiguration = OAuthConfiguration(), oauthTimeout: Duration = .seconds(300),
        trackerShield: TrackerShield? = nil, onSignedInAgain: (@Sendable (_ accountId: String) async -> Void)? = nil,
        notificationServer: @escaping @Sendable () async -> NotificationServerStatus = {
            NotificationServerStatus(server: nil, capabilities: [], authorized: false, problem: PlainProblem(words: "This process shows no desktop notifications: the daemon does. Start it with `vaultmail daemon`."))
        }
    ) -> WebMail {
        let local = GRDBEmailRepository(database: database)
        let accounts = Accounts(database: database, credentials: credentials, settings: settingsStore,
                                oauthConfiguration: oauthConfiguration, accessTokens: accessTokens)
        let contacts = ContactDirectory(source: GRDBContactSource(database: database))
        let clock = SystemWallClock()
        var mail = WebMail(
            mailboxes: Mailboxes(emails: emailRepository),
            conversations: conversations,
            attachments: ReadAttachmentUseCase(emails: emailRepository, sources: local, parts: GMimeMessageParser()),
            changes: GRDBMailChangeFeed(database: database), preferences: Preferences(settings: settingsStore, contacts: contacts),
            coordinator: notificationSyncCoordinator, compose: compose,
            composition: Compose(emails: emailRepository, accounts: accountRepository, settings: settingsStore, sending: compose, clock: clock),
            contacts: contacts, markdown: CmarkMarkdownRenderer(), notificationHistory: NotificationHistory(ledger: notificationLedger),
            accountService: accounts,
            notificationSettings: NotificationSettings(settings: settingsStore, permission: notificationPermission ?? notificationService.permission,
                                                       accounts: accountRepository, emails: emailRepository),
            administration: AccountAdministrator(accounts: accounts, credentials: credentials, oauthConfiguration: oauthConfiguration,
                                                 accessTokens: accessTokens, oauthTimeout: oauthTimeout, onSignedInAgain: onSignedInAgain),
            notificationServer: notificationServer, clock: clock)
        mail.categories = Categories(repository: GRDBCategoryRepository(database: database))
        mail.followUp = followUp(clock: clock)
        mail.unsubscribe = Unsubscribe(emails: emailRepository, records: GRDBSubscriptionRepository(database: database),
                                       client: Self.oneClickClient(), sending: compose, clock: clock)
        mail.autocryptSetup = openPGPEngine.map {
            AppDependencies.autocryptSetup(engine: $0, database: database, compose: compose, clock: clock)
        }
        mail.privacy = trackerShield.map { Privacy(shield: $0, tally: GRDBTrackerTally(database: database)) }
        let search = GRDBMailSearch(database: database)
        mail.search = SearchMailUseCase(search: search, clock: mail.clock)
        let semanticIndex = GRDBSemanticIndex(database: database)
        mail.semanticSearch = textEmbedder.map {
            SemanticSearchUseCase(search: search, index: semanticIndex, embedder: $0, clock: mail.clock)
        }
        let summaries = GRDBThreadSummaryRepository(database: database)
        mail.summaries = SummarizeThreadUseCase(emails: emailRepository, summaries: summaries, generator: textGenerator,
                                                embedder: textEmbedder, clock: mail.clock)
        mail.replySuggestions = SmartReplyUseCase(emails: emailRepository, accounts: accountRepository, generator: textGenerator,
                                                  embedder: textEmbedder, semanticIndex: semanticIndex,
                                                  replyHistory: GRDBReplyHistory(database: database))
        return mail
    }
}
