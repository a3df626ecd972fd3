import Foundation
import Logging
import ServiceLifecycle
import VaultMailAI
import VaultMailCore
import VaultMailDesktop
import VaultMailNotifications
import VaultMailStore
import VaultMailSync
import VaultMailMIME
import VaultMailWeb

/// `vaultmail daemon`: keeps every account in sync (IMAP IDLE for the inbox, NOTIFY or a
/// STATUS check every few seconds for the other folders, and a periodic background sync of
/// everything as the safety net), runs the notification engine with the desktop notifier,
/// carries out notification actions on the server, and keeps the badge — until SIGTERM or
/// SIGINT, when it finishes the current step and exits.
@MainActor
public final class MailDaemon {
    public struct Options: Sendable {
        /// How often every folder is synced in the background (`fromBackground: true`).
        public var syncInterval: Duration = .seconds(300)
        /// IDLE, and how the other folders stay fresh between whole syncs (`otherFolders`:
        /// NOTIFY where offered, else a STATUS check every `statusCheckInterval`, 5 s).
        public var idle = IDLEMonitorOptions()
        /// How long a connection may stay down before the user is told.
        public var outageGrace: TimeInterval = 300
        /// How often the account list is read again, so accounts added or removed with the
        /// command line are watched or dropped without a restart.
        public var accountCheckInterval: Duration = .seconds(5)
        public var desktop = DBusNotificationCenter.Configuration()
        /// Run with `/bin/sh` when a notification is clicked: `$1` is the thread id (`ThreadOpener`);
        /// nil opens the conversation in the web app when it is served, else in a terminal if there is one.
        public var openCommand: String?
        /// The web app's port on 127.0.0.1; nil serves no web app (`--no-web`).
        public var webPort: Int? = Options.defaultWebPort
        public static let defaultWebPort = WebConfiguration.defaultPort

        public init() {}
    }

    public let app: AppDependencies
    public let services: MailServices
    public let sending: MailSending
    private let center: DBusNotificationCenter
    private let opener: ThreadOpener
    private let health: AccountHealthMonitor
    private let idle: IDLEMonitorUseCase
    private let options: Options
    let logger: Logger
    private let lock: DaemonLock
    /// The web app, when served: it shares this daemon's store, engine and connections.
    public let web: WebApp?
    /// Categories and vectors for search by meaning, in the background after each sync.
    private let indexer: MailIndexer
    /// Other processes' changes to the store (the tool beside the daemon), and the session record.
    let otherProcesses: OtherProcessChanges
    /// Snoozing (issue 33): the web app's, and what the timer wakes through.
    let snooze: Snooze
    /// Brings snoozed conversations back at their time.
    let snoozeWaker: SnoozeWaker

    /// Takes the home's daemon lock and builds the graph; fails if another daemon runs there.
    public static func start(home: VaultMailHome, options: Options, credentials: any CredentialStore = SecretServiceCredentialStore(),
                             logger: Logger) async throws -> MailDaemon {
        try home.prepare()
        ProcessMemory.configureHeap()
        let lock = try DaemonLock(path: home.daemonLockPath)
        let database = try AppDatabase.open(path: home.databasePath) { indexed, total in
            logger.info("indexing mail for search: \(indexed) of \(total)")
        }
        let accountCredentials = AccountCredentials(store: credentials)
        let services = MailServices(database: database, credentials: accountCredentials)
        let settings = SettingsStore(storage: GRDBSettingsStorage(database: database))
        // One OpenPGP engine (issue 32) reads and writes: its agents are stopped once, at the end.
        let openPGPEngine = AppDependencies.openPGPEngine(home: home)
        // The one daemon of this home (its lock): claims of an earlier daemon run are a dead run's.
        let sending = MailSending(database: database, settings: settings, credentials: accountCredentials,
                                  connections: services.connections, openPGP: openPGPEngine,
                                  runId: OutboxSender.daemonRunPrefix + UUID().uuidString.lowercased())
        var desktop = options.desktop
        // A restarted daemon still answers the notifications the one before it posted (AC-N-20, E-12).
        desktop.rememberedIn = desktop.rememberedIn ?? home.directory.appendingPathComponent("notifications.json")
        let center = DBusNotificationCenter(configuration: desktop, settings: settings)
        // Summaries and suggested replies (issue 16): the generative model, loaded on first use;
        // a new mail's notification gains buttons with the replies it writes.
        let generator = AppDependencies.textGenerator(library: AppDependencies.modelManager(home: home))
        let replies = SmartReplyUseCase(emails: services.emails, accounts: GRDBAccountRepository(database: database),
                                        generator: generator, embedder: nil, semanticIndex: nil, replyHistory: nil)
        let suggestingCenter = ReplySuggestingNotificationCenter(base: center) { threadId in
            // Replies show what the mail is about: only where the notification shows it (issue 33).
            guard await MainActor.run(body: { settings.notificationContent == .full }) else { return [] }
            return await ReplySuggestingNotificationCenter.modelReplies(replies, threadId: threadId)
        }
        let app = await AppDependencies(database: database, center: suggestingCenter, composeEmail: sending.compose,
                                        emailRepository: services.emails, settingsStore: settings,
                                        openPGPEngine: openPGPEngine)
        let opener = ThreadOpener(command: options.openCommand ?? (options.webPort != nil ? ThreadOpener.webCommand : ThreadOpener.defaultCommand),
                                  home: home.directory.path)
        // On-device AI (issue 15): one sentence model, loaded on first use and unloaded when idle,
        // for categories, vectors and search by meaning; a model installed or removed in the web
        // app takes effect at once (one installed with the tool, at the next sync).
        let embedder = AppDependencies.textEmbedder(library: AppDependencies.modelManager(home: home))
        let semanticIndex = GRDBSemanticIndex(database: database)
        let indexer = MailIndexer(
            categorize: CategorizeEmailsUseCase(repository: GRDBCategoryRepository(database: database),
                                                model: ModelCategorizer(embedder: embedder)),
            logger: logger)
        let embedEmails = EmbedEmailsUseCase(index: semanticIndex, embedder: embedder)
        await indexer.afterEachRound {
            do {
                let count = try await embedEmails.run()
                if count > 0 { logger.info("read \(count) message(s) for search by meaning") }
            } catch {
                logger.warning("reading mail for search by meaning failed: \(error); the next sync tries again")
            }
        }
        // One IDLE monitor; "Sign in again" in the web app ends an account's backoff at once (issue 34).
        let idle = IDLEMonitorUseCase(sync: services.sync, options: options.idle)
        let snoozeWaker = SnoozeWaker(logger: logger)
        let snooze = Snooze(emails: services.emails, server: services.snoozeServer, store: GRDBSnoozeRepository(database: database),
                            clock: SystemWallClock(), changed: { await snoozeWaker.changed() })
        let web = try options.webPort.map { port in
            // The tracker lists are read once, here, from the package's copy or Debian's uBlock
            // Origin package (never the network).
            let shield = TrackerShield.load()
            switch shield.status {
            case .on(let version, let files, let filters, let parameters):
                logger.info("tracker shield on: uBlock Origin \(version)'s EasyPrivacy and privacy lists (\(files.joined(separator: ", "))), \(filters) filters, \(parameters) tracking parameters")
            case .listsMissing(let reason):
                logger.warning("tracker shield without its lists: \(reason)")
            }
            // Permission is the notification server's answer, whatever the master switch (which
            // makes the daemon's own centre report "denied" while off).
            var mail = app.webMail(compose: sending.compose, credentials: credentials, accessTokens: accountCredentials.tokens,
                                   textEmbedder: embedder, textGenerator: generator,
                                   notificationPermission: NotificationServerPermission(center: DBusNotificationCenter(configuration: options.desktop)),
                                   trackerShield: shield, onSignedInAgain: { idle.retryNow(accountId: $0) }) {
                await center.status()
            }
            mail.snooze = snooze
            mail.storage = home.storage(database: database, accounts: app.accountRepository)
            // Allowed remote images are fetched by the daemon, not the browser (issue 30).
            mail.privacy?.images = RemoteImages(shield: shield, fetcher: URLSessionImageFetcher(),
                                                cache: RemoteImageCache(directory: home.imageCacheDirectory))
            mail.aiModels = AppDependencies.modelAdministration(
                home: home, onInstalled: { _ in await indexer.scheduleRound() },
                onRemoved: { id in
                    if id == AIModelCatalog.generationModelId { generator.unload() } else { await embedder.unload() }
                })
            return try WebApp(configuration: WebConfiguration(port: port, home: home.directory), mail: mail, logger: logger)
        }
        return MailDaemon(app: app, services: services, sending: sending, center: center, opener: opener, options: options,
                          logger: logger, lock: lock, web: web, indexer: indexer, idle: idle, snooze: snooze, snoozeWaker: snoozeWaker)
    }

    private init(app: AppDependencies, services: MailServices, sending: MailSending, center: DBusNotificationCenter,
                 opener: ThreadOpener, options: Options, logger: Logger, lock: DaemonLock, web: WebApp?, indexer: MailIndexer,
                 idle: IDLEMonitorUseCase, snooze: Snooze, snoozeWaker: SnoozeWaker) {
        self.app = app
        self.services = services
        self.sending = sending
        self.center = center
        self.opener = opener
        self.options = options
        self.logger = logger
        self.lock = lock
        self.web = web
        self.indexer = indexer
        self.snooze = snooze
        self.snoozeWaker = snoozeWaker
        otherProcesses = OtherProcessChanges(database: app.database)
        health = AccountHealthMonitor(center: center, clock: SystemWallClock(), outageGrace: options.outageGrace)
        self.idle = idle
        app.notificationResponseHandler.onOutcome = { [weak self] outcome in await self?.followUp(outcome) }
    }

    /// After the user acted on a notification: says what happened in the log, tells the user
    /// when it failed (the mailbox is unchanged and the notification stays), and opens a
    /// conversation the user clicked.
    private func followUp(_ outcome: NotificationActionOutcome) async {
        switch outcome {
        case .failed(let action, let message):
            logger.error("notification action \(action) failed: \(message)")
            let request = NotificationRequest(
                identifier: "action-failed-\(UUID().uuidString)",
                content: NotificationContent(
                    title: "VaultMail could not \(action)", subtitle: "", body: message, categoryIdentifier: "ACTION_FAILED",
                    threadIdentifier: "action-failed", userInfo: NotificationUserInfo(emailId: "", threadId: "", accountId: "", fromAddress: ""),
                    interruptionLevel: .active))
            try? await center.add(request)
        case .openedThread(let threadId):
            open(threadId)
        case .composeRequested:
            if let threadId = app.notificationSyncCoordinator.pendingThreadNavigation { open(threadId) }
        case .markedRead(let threadId), .archived(let threadId), .deleted(let threadId):
            logger.info("notification action done on thread \(threadId.prefix(10)): \(outcome)")
        case .replied(let draftId):
            logger.info("reply \(draftId.prefix(10)) sent from a notification")
        case .dismissed:
            break
        }
    }

    /// Shows a conversation the handler opened (`Conversations.open`, as every face does: its
    /// notification withdrawn, marked read on the server) with the open command.
    private func open(_ threadId: String) {
        app.notificationSyncCoordinator.pendingThreadNavigation = nil
        logger.info("opening thread \(threadId.prefix(10))")
        let logger = self.logger
        opener.open(threadId: threadId) { problem in logger.warning("\(problem)") }
    }

    /// Runs until SIGTERM or SIGINT.
    public func run() async throws {
        var services: [any Service] = [DaemonService(daemon: self)]
        if let web { services.append(web) }
        let group = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }

    /// Everything the daemon does, until cancelled.
    func runUntilCancelled() async throws {
        let accounts = try await app.accountRepository.getAccounts().filter(\.isActive)
        if accounts.isEmpty {
            logger.info("no accounts yet; add one with `vaultmail account add` and this daemon takes it in")
        } else {
            logger.info("watching \(accounts.count) account(s): \(accounts.map(\.name).joined(separator: ", "))")
        }
        if await center.authorizationStatus() != .authorized, !(await app.notificationService.requestAuthorization()) {
            logger.warning("desktop notifications unavailable: \(center.lastError.map { "\($0)" } ?? "denied"); mail is still synced and counted")
        }
        do {
            try await otherProcesses.begin(accounts: accounts)
        } catch {
            logger.warning("cannot record this daemon's session: \(error); mail stored by `vaultmail sync` beside it may not notify")
        }
        // Changes kept while a server could not be reached, replayed before each sync (issue 29).
        let replays = Task { for await report in services.replayReports { await self.replayed(report) } }
        defer { replays.cancel() }
        // The first sync of the session: everything it finds is suppressed (first launch).
        await withTaskGroup(of: Void.self) { group in
            for account in accounts { group.addTask { await self.sync(account, fromBackground: false) } }
        }
        app.notificationSyncCoordinator.markFirstLaunchComplete()
        logger.info("first sync done; new mail now notifies")
        ProcessMemory.returnFreeMemory()
        await sending.processor.start()
        // Snoozed mail (issue 33): read from each server, overdue mail woken once now, then at its time.
        for account in accounts { await refreshSnoozed(account) }
        let waking = Task { await snoozeWaker.run(snooze) { woken in await self.cameBack(woken) } }
        // The quiet hours' digest and follow-up reminders (issue 33): looked for every half minute,
        // each posted once.
        let followUp = app.followUp()
        let digests = Task { @MainActor [app, logger] in
            while !Task.isCancelled {
                if let digest = await app.notificationService.postQuietHoursDigest() {
                    logger.info("quiet hours ended: posted their digest (\(digest.subtitle))")
                }
                do {
                    let due = try await followUp.due()
                    if !due.isEmpty {
                        await app.notificationService.postFollowUps(due)
                        logger.info("follow-up: \(due.count) conversation(s) got no answer in time; reminded")
                    }
                } catch {
                    logger.warning("follow-up reminders could not be read: \(error)")
                }
                try? await Task.sleep(for: .seconds(30))
            }
        }
        defer { digests.cancel() }
        // The tool beside the daemon: what it changes reaches the desktop within a second.
        let following = Task { await self.followOtherProcesses() }
        await catchUpWithOtherProcesses()
        await superviseAccounts(accounts)
        waking.cancel()
        await waking.value
        following.cancel()
        await otherProcesses.watcher.stop()
        await following.value
        await otherProcesses.end()
        await indexer.stop()
        await sending.processor.stop()
        await services.connections.closeAll()
        await app.openPGPEngine?.close()
        logger.info("stopped")
    }

    /// Watches every account until cancelled, taking in accounts added, changed or removed
    /// beside the running daemon.
    private func superviseAccounts(_ initial: [Account]) async {
        var watched: [String: (account: Account, task: Task<Void, Never>)] = [:]
        for account in initial { watched[account.id] = (account, Task { await self.keepInSync(account) }) }
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: options.accountCheckInterval)
            } catch {
                break
            }
            let accounts: [Account]
            do {
                accounts = try await app.accountRepository.getAccounts().filter(\.isActive)
            } catch {
                logger.warning("cannot read the account list: \(error); trying again")
                continue
            }
            let current = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for (id, entry) in watched where current[id] != entry.account {
                entry.task.cancel()
                await entry.task.value
                watched[id] = nil
                await health.forget(accountId: id)
                // Closed in the background: a hung server must not hold up the daemon.
                Task { await self.services.connections.close(accountId: id) }
                if current[id] == nil {
                    // A removed account's access token leaves memory with it.
                    await services.credentials.tokens.forget(accountId: id)
                    otherProcesses.forget(accountId: id)
                    await app.notificationService.withdrawStaleNotifications()
                    logger.info("account \(entry.account.name) was removed; no longer watched")
                }
            }
            for account in accounts where watched[account.id] == nil {
                logger.info("watching the account \(account.name)")
                watched[account.id] = (account, Task { await self.startWatching(account) })
            }
        }
        for entry in watched.values { entry.task.cancel() }
        for entry in watched.values { await entry.task.value }
    }

    /// An account added (or changed) while the daemon runs: like the daemon's own first sync,
    /// its first sync never notifies, and it is tried again (every 30 s) until it succeeds, so
    /// old mail never reaches the engine as new.
    private func startWatching(_ account: Account) async {
        while !(await sync(account, fromBackground: false, notify: false)) {
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                return
            }
        }
        do {
            try await otherProcesses.evaluate(accountId: account.id)
        } catch {
            logger.warning("cannot record \(account.name) in this daemon's session: \(error)")
        }
        await keepInSync(account)
    }

    /// IDLE on the account's inbox (with NOTIFY or STATUS checks for the other folders) and a
    /// periodic sync of everything, until cancelled.
    private func keepInSync(_ account: Account) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.watch(account) }
            group.addTask { await self.syncPeriodically(account) }
        }
    }

    /// One sync of the account, its new mail handed to the engine (unless `notify` is false).
    /// Returns whether the account was synced (wholly or partly).
    @discardableResult
    private func sync(_ account: Account, fromBackground: Bool, notify: Bool = true) async -> Bool {
        do {
            let new = try await services.sync.syncAccount(accountId: account.id)
            await recovered(account)
            if notify {
                await deliver(new, fromBackground: fromBackground)
            } else {
                await recordSilentFirstSync(new)
                await indexer.scheduleRound()
            }
            logger.info("synced \(account.name): \(new.count) new")
            await refreshSnoozed(account)
            if !new.isEmpty { releaseMemoryWhenIndexed() }
            return true
        } catch is CancellationError {
            return false
        } catch let error as SyncError where error.kind == .someFoldersFailed {
            if notify { await deliver(error.newEmails, fromBackground: fromBackground) } else { await recordSilentFirstSync(error.newEmails) }
            logger.warning("synced \(account.name) partly: \(error)")
            return true
        } catch {
            await report(error, account)
            return false
        }
    }

    private func syncPeriodically(_ account: Account) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: options.syncInterval)
            } catch {
                return
            }
            await sync(account, fromBackground: true)
            ProcessMemory.returnFreeMemory()
        }
    }

    /// The inbox in IMAP IDLE: new mail notifies; flags and expunges from elsewhere withdraw
    /// what they made stale.
    private func watch(_ account: Account) async {
        var listening = false
        var watching: IDLEMonitorEvent.OtherFolderWatch?
        do {
            for try await event in idle.events(accountId: account.id) {
                switch event {
                case .newMail(let emails):
                    await deliver(emails, fromBackground: false)
                    logger.info("\(account.name): \(emails.count) new by IDLE")
                case .flagsChanged, .expunged:
                    await app.notificationService.withdrawStaleNotifications()
                case .folderSynced(let folder, let report):
                    // The same path as the periodic sync: the store (and so the web app's
                    // change feed), the indexer and the notification rules, which keep Junk,
                    // Sent and the like quiet unless they say otherwise.
                    await deliver(report.newEmails, fromBackground: true)
                    if folder.folderType == .snoozed || folder.folderType == .inbox { await refreshSnoozed(account) }
                    if !report.newEmails.isEmpty || report.flagChanges > 0 || report.removed > 0 {
                        logger.info("\(account.name): \(folder.path) synced: \(report.newEmails.count) new, \(report.flagChanges) flag change(s), \(report.removed) removed")
                    }
                case .watchingOtherFolders(let watch):
                    // Said once, and again when it changes (NOTIFY refused or overflowed).
                    if watch != watching {
                        watching = watch
                        switch watch {
                        case .notify: logger.info("\(account.name): other folders by NOTIFY")
                        case .statusChecks(let interval): logger.info("\(account.name): other folders by a STATUS check every \(interval)")
                        }
                    }
                case .listening:
                    if !listening { logger.info("\(account.name): IDLE on the inbox") }
                    listening = true
                    await recovered(account)
                case .disconnected(let error, let retryIn):
                    listening = false
                    let problem = Self.problem(error)
                    logger.warning("\(Self.interruption(problem, account: account, error: error, retryIn: retryIn))")
                    await report(problem, account)
                }
            }
        } catch is CancellationError {
            return
        } catch {
            await report(error, account)
        }
    }

    /// After a sync that brought mail, once the indexer's round after it has categorized that
    /// mail too (its writes fill the store's page caches again): SQLite's caches and the heap's
    /// free pages go back to the system.
    private func releaseMemoryWhenIndexed() {
        let database = app.database
        Task.detached(priority: .background) { [indexer, logger] in
            await indexer.waitUntilIdle()
            database.releaseMemory()
            ProcessMemory.returnFreeMemory()
            logger.info("memory given back; \(ProcessMemory.heapSummary())")
        }
    }

    /// Hands new mail to the engine (which knows what the web app shows, from the page) and
    /// publishes the in-app banners it decided on. The settings are those of this
    /// process, taken in again when another process (`vaultmail notify …`) committed to the
    /// store: at its change signal (`catchUpWithOtherProcesses`), or here when it committed
    /// since the last poll.
    func deliver(_ emails: [Email], fromBackground: Bool) async {
        if !emails.isEmpty {
            if await otherProcesses.watcher.checkNow() { app.settingsStore.reload() }
            // A category's notifications turned off: the new mail is categorized first, so the
            // category filter sees its category (docs/ai.md); otherwise it notifies at once.
            let categoryFilterOn = app.settingsStore.notificationCategoryPreferences.values.contains(false)
            let emails = await indexer.categorizeBeforeNotifying(emails, categoryFilterOn: categoryFilterOn)
            let inApp = await app.notificationSyncCoordinator.didSyncNewEmails(emails, fromBackground: fromBackground,
                                                                               activeFolderType: nil)
            if let web, !inApp.isEmpty {
                await web.events.publish(.newMail(inApp.map(NewMailSummary.init(content:))))
            }
        }
        await indexer.scheduleRound()
        // Also after a round without new mail: what changed elsewhere withdraws its
        // notification, and the badge is counted again.
        await app.notificationService.withdrawStaleNotifications()
    }

    /// Reads the account's Snoozed mailbox on the server again (another client may have snoozed,
    /// woken or moved mail) and sets the timer again.
    private func refreshSnoozed(_ account: Account) async {
        do {
            try await snooze.refresh(accountId: account.id)
        } catch {
            logger.warning("\(account.name): cannot read the Snoozed mailbox: \(error); trying at the next sync")
        }
        await snoozeWaker.changed()
    }

    /// Mail that came back from Snoozed: announced by the notification rules (not held back for
    /// its age: it was announced when it arrived), shown as in-app banners on open pages.
    func cameBack(_ woken: [WokenMail]) async {
        for mail in woken {
            guard let emails = try? await app.emailRepository.getEmails(ids: mail.emailIds), !emails.isEmpty else { continue }
            let inApp = await app.notificationSyncCoordinator.snoozedMailCameBack(emails, snoozedUntil: mail.snoozedUntil)
            if let web, !inApp.isEmpty {
                await web.events.publish(.newMail(inApp.map(NewMailSummary.init(content:))))
            }
        }
    }

    private func report(_ error: any Error, _ account: Account) async {
        logger.error("\(account.name): \(error)")
        await report(Self.problem(error), account)
    }

    /// Tells the account alerts and the web app's offline indicator.
    private func report(_ problem: AccountHealthMonitor.Problem, _ account: Account) async {
        await health.report(problem, for: account)
        await web?.events.setConnectionProblem(problem.words(for: account), detail: problem.detail, account: account.name)
    }

    /// What a replay of changes kept offline did: logged, and a change that could not be done
    /// told to the open pages in a person's words.
    private func replayed(_ report: PendingChanges.Report) async {
        if !report.done.isEmpty {
            logger.info("done on the server: \(report.done.count) change(s) kept while it could not be reached; \(report.waiting) still waiting")
        }
        for problem in report.problems {
            logger.warning("\(problem)")
            await web?.events.publish(.notice(problem))
        }
    }

    private func recovered(_ account: Account) async {
        await health.recovered(account)
        await web?.events.setConnectionProblem(nil, account: account.name)
    }

    /// Tries the account again now instead of after its backoff (it was signed in again).
    func retryNow(accountId: String) {
        idle.retryNow(accountId: accountId)
    }

    /// The log's line for a watch that stopped: named for what it is (issue 34): a full disk is
    /// not a lost connection.
    static func interruption(_ problem: AccountHealthMonitor.Problem, account: Account, error: any Error, retryIn: Duration) -> String {
        switch problem {
        case .diskFull: "\(account.name): cannot store mail, this computer's disk is full (\(error)); trying again in \(retryIn)"
        case .loginFailed, .signInAgain: "\(account.name): cannot sign in (\(error)); trying again in \(retryIn)"
        case .insecure: "\(account.name): cannot connect securely (\(error)); trying again in \(retryIn)"
        case .unreachable: "\(account.name): connection lost (\(error)); retrying in \(retryIn)"
        case .signInServerUnreachable(let host, _): "\(account.name): cannot reach its sign-in server \(host) (\(error)); retrying in \(retryIn)"
        }
    }

    /// A refused login (or a credential that cannot be had) is announced at once; anything
    /// else only if it lasts.
    static func problem(_ error: any Error) -> AccountHealthMonitor.Problem {
        AccountHealthMonitor.Problem(error)
    }
}

/// The daemon as a ServiceLifecycle service: cancelled on graceful shutdown.
struct DaemonService: Service {
    let daemon: MailDaemon

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await self.daemon.runUntilCancelled()
        }
    }
}
