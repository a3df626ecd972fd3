import Foundation
import VaultMailCore
import VaultMailDesktop
import VaultMailMIME
import VaultMailNotifications
import VaultMailStore

/// The composition root of the `vaultmail` tool: the store of a home directory, opened once,
/// and the application services and use cases `CommandSession` calls, built over it. The
/// session itself reads and changes nothing but through what is built here (issue 28); tests
/// seed and inspect the store through the repositories kept here.
@MainActor
public final class CommandDependencies {
    public let database: AppDatabase
    public let emails: GRDBEmailRepository
    public let accounts: GRDBAccountRepository
    public let settings: SettingsStore
    public let ledger: GRDBNotificationLedger
    public let clock: any WallClock
    /// OpenPGP (issue 32): GnuPG homes under the home's `openpgp` folder.
    public let openPGPEngine: any OpenPGPEngine

    /// Opens (and migrates) the store of `home`; `searchProgress` hears a first indexing.
    public init(home: VaultMailHome, clock: any WallClock, searchProgress: SearchIndexProgress? = nil) throws {
        try home.prepare()
        database = try AppDatabase.open(path: home.databasePath, searchProgress: searchProgress)
        emails = GRDBEmailRepository(database: database)
        accounts = GRDBAccountRepository(database: database)
        settings = SettingsStore(storage: GRDBSettingsStorage(database: database))
        ledger = GRDBNotificationLedger(database: database)
        self.clock = clock
        openPGPEngine = AppDependencies.openPGPEngine(home: home)
    }

    // MARK: Application services

    public var mailboxes: Mailboxes { Mailboxes(emails: emails) }

    public var notificationHistory: NotificationHistory { NotificationHistory(ledger: ledger) }

    public var categories: Categories { Categories(repository: categoryRepository) }

    /// The accounts' OpenPGP keys (issue 32).
    public var openPGPKeys: OpenPGPKeys { OpenPGPKeys(engine: openPGPEngine, peers: GRDBAutocryptPeerRepository(database: database)) }

    /// The Autocrypt Setup Message (issue 32), sent through `sending`.
    public func autocryptSetup(sending: MailSending) -> AutocryptSetup {
        AppDependencies.autocryptSetup(engine: openPGPEngine, database: database, compose: sending.compose, clock: clock)
    }

    /// Adding, changing and removing accounts, with secrets in `credentials`.
    public func accountService(credentials: any CredentialStore, oauthConfiguration: OAuthConfiguration,
                               accessTokens: OAuthAccessTokens?) -> Accounts {
        Accounts(database: database, credentials: credentials, settings: settings, oauthConfiguration: oauthConfiguration,
                 accessTokens: accessTokens)
    }

    /// Switching notifications on and off (asking `permission` first), VIPs, muting.
    public func notificationSettings(permission: any NotificationPermission) -> NotificationSettings {
        NotificationSettings(settings: settings, permission: permission, accounts: accounts, emails: emails)
    }

    /// Opening and acting on conversations over `repository` (the server first). This process
    /// shows no notifications: the daemon beside it sees the store change and withdraws those
    /// of mail that became read or left the inbox.
    public func conversations(using repository: any EmailRepository) -> Conversations {
        Conversations(emails: repository, settings: settings, withdrawNotifications: nil,
                      openPGP: AppDependencies.openPGPReading(engine: openPGPEngine, database: database))
    }

    /// Unsubscribing (one-click request through `client`, mail through `sending`) and the senders of bulk mail.
    public func unsubscribe(sending: ComposeEmailService, client: any OneClickUnsubscribeClient) -> Unsubscribe {
        Unsubscribe(emails: emails, records: GRDBSubscriptionRepository(database: database), client: client, sending: sending,
                    clock: clock)
    }

    /// Snoozing conversations on the server of `services` (issue 33) and the snoozed list.
    public func snooze(services: MailServices) -> Snooze {
        Snooze(emails: emails, server: services.snoozeServer, store: GRDBSnoozeRepository(database: database), clock: clock)
    }

    /// What an answer or a forward contains and the size limit, sending through `sending`.
    public func composition(sending: ComposeEmailService) -> Compose {
        Compose(emails: emails, accounts: accounts, settings: settings, sending: sending, clock: clock)
    }

    // MARK: The server side

    /// Sync and the server-first repository over `credentials`.
    public func mailServices(credentials: AccountCredentials) -> MailServices {
        MailServices(database: database, credentials: credentials, clock: clock)
    }

    /// Compose, the outbox and SMTP, filing on `services`' connections.
    public func sending(credentials: AccountCredentials, services: MailServices) -> MailSending {
        MailSending(database: database, settings: settings, credentials: credentials, clock: clock, connections: services.connections,
                    openPGP: openPGPEngine)
    }

    /// The notification server's state as the daemon's centre would report it with these settings.
    public var notificationCenter: DBusNotificationCenter { DBusNotificationCenter(settings: settings) }

    // MARK: Use cases

    /// A message's attachments, read out of its stored source (forwarding).
    public var attachments: ReadAttachmentUseCase { ReadAttachmentUseCase(emails: emails, sources: emails, parts: GMimeMessageParser()) }

    /// The store's categories (categorizing waiting mail).
    public var categoryRepository: GRDBCategoryRepository { GRDBCategoryRepository(database: database) }

    /// Categorizes waiting mail: header rules, and `embedder`'s model when given.
    public func categorizing(embedder: (any TextEmbedder)?) -> (use: CategorizeEmailsUseCase, model: ModelCategorizer?) {
        let model = embedder.map { ModelCategorizer(embedder: $0) }
        return (CategorizeEmailsUseCase(repository: categoryRepository, model: model), model)
    }

    public var searchMail: SearchMailUseCase { SearchMailUseCase(search: GRDBMailSearch(database: database), clock: clock) }

    /// Search by meaning, and reading the mail the model has not read yet.
    public func semanticSearch(embedder: any TextEmbedder) -> (embedding: EmbedEmailsUseCase, search: SemanticSearchUseCase) {
        let index = GRDBSemanticIndex(database: database)
        return (EmbedEmailsUseCase(index: index, embedder: embedder),
                SemanticSearchUseCase(search: GRDBMailSearch(database: database), index: index, embedder: embedder, clock: clock))
    }

    public func smartReply(generator: (any TextGenerator)?, embedder: (any TextEmbedder)?) -> SmartReplyUseCase {
        SmartReplyUseCase(emails: emails, accounts: accounts, generator: generator, embedder: embedder,
                          semanticIndex: GRDBSemanticIndex(database: database), replyHistory: GRDBReplyHistory(database: database))
    }

    public func summarizing(generator: (any TextGenerator)?, embedder: (any TextEmbedder)?) -> SummarizeThreadUseCase {
        SummarizeThreadUseCase(emails: emails, summaries: GRDBThreadSummaryRepository(database: database),
                               generator: generator, embedder: embedder, clock: clock)
    }

    // MARK: The daemon's record

    /// What the daemon recorded of its runs, and where the email sits against its store marks
    /// (nil when it is not stored): why an email has no notification decision.
    public func daemonRecord(emailId: String) async throws -> (session: DaemonSession?, storeMark: Int64?) {
        (DaemonSession.load(from: GRDBSettingsStorage(database: database)), try await ledger.storeMark(ofEmailId: emailId))
    }
}
