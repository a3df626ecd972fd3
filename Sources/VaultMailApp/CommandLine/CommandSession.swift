import Foundation
import VaultMailCore
import VaultMailDesktop
import VaultMailNotifications
import VaultMailOAuth
import VaultMailStore

/// What a command works through: Core's application services over the store of a home
/// directory, built by `CommandDependencies`, with the look-ups commands share (accounts by
/// name, ids by prefix, folders by name). It parses a command's input, asks the services and
/// words their answers; it holds no repository and no `SettingsStore` (issue 28).
@MainActor
public final class CommandSession {
    public let home: VaultMailHome
    /// The composition root the services are built from (the server side, sending and the
    /// models on first use).
    public let dependencies: CommandDependencies
    public let clock: any WallClock
    /// Where passwords given with --password-stdin are kept.
    public let credentials: any CredentialStore
    /// Folders, lists, counts, the outbox, a conversation's or message's header data: the reads the web app shares.
    public let mailboxes: Mailboxes
    /// The notification engine's decisions (`notify why`, `notify log`).
    public let notificationHistory: NotificationHistory
    /// Messages' categories and the user's corrections: the rules the web app shares.
    public let categories: Categories
    /// What an OAuth2 sign-in opens the consent page with (`xdg-open`; tests follow it themselves).
    public var oauthBrowser: any BrowserLauncher = XDGBrowserLauncher()
    /// Where OAuth2 client IDs and endpoints come from (the environment, the configuration files).
    public var oauthConfiguration = OAuthConfiguration()
    /// How long the sign-in waits for the user to finish the consent page.
    public var oauthTimeout: Duration = .seconds(300)

    public init(home: VaultMailHome, clock: any WallClock = SystemWallClock(),
                credentials: any CredentialStore = SecretServiceCredentialStore()) throws {
        self.home = home
        dependencies = try CommandDependencies(home: home, clock: clock, searchProgress: Self.reportIndexing)
        mailboxes = dependencies.mailboxes
        notificationHistory = dependencies.notificationHistory
        categories = dependencies.categories
        self.clock = clock
        self.credentials = credentials
    }

    /// A store made before search is indexed when first opened: say so on standard error.
    private static let reportIndexing: SearchIndexProgress = { indexed, total in
        FileHandle.standardError.write(Data("Indexing mail for search (once): \(indexed) of \(total)\n".utf8))
    }

    public var dates: RelativeDate { RelativeDate(now: clock.now, timeZone: clock.timeZone) }

    /// Passwords and tokens of accounts, with the OAuth2 access tokens kept in memory for the
    /// whole command.
    public lazy var accountCredentials = AccountCredentials(store: credentials)

    /// The server side (sync, server-backed actions), built on first use.
    public lazy var services = dependencies.mailServices(credentials: accountCredentials)

    /// The one-click unsubscribe request's client (tests give one that trusts their CA).
    public lazy var oneClickClient: any OneClickUnsubscribeClient = AppDependencies.oneClickClient()

    /// The sentence model categories and search by meaning read with, over this home's models
    /// folder; its model is loaded on first use.
    public lazy var textEmbedder: any TextEmbedder = AppDependencies.textEmbedder(library: AppDependencies.modelManager(home: home))

    /// Sending: compose, the outbox and SMTP, built on first use.
    public lazy var sending: MailSending = dependencies.sending(credentials: accountCredentials, services: services)

    /// Adding, changing and removing accounts: the rules the web app shares.
    public var accountService: Accounts {
        dependencies.accountService(credentials: credentials, oauthConfiguration: oauthConfiguration, accessTokens: accountCredentials.tokens)
    }

    /// Whether notifications may be switched on: the desktop's notification server, asked.
    public lazy var notificationPermission: any NotificationPermission = NotificationServerPermission(center: DBusNotificationCenter())

    /// Switching notifications on and off, VIPs and muted conversations: the rules the web app shares.
    public var notificationSettings: NotificationSettings {
        dependencies.notificationSettings(permission: notificationPermission)
    }

    /// What an answer or a forward contains and the size limit: the rules the web composer shares.
    public lazy var composition = dependencies.composition(sending: sending.compose)

    public func account(named name: String) async throws -> Account {
        guard let account = try await accountService.account(named: name) else {
            let known = try await accountService.all().map(\.name)
            throw CommandError("no account named '\(name)'" + (known.isEmpty
                ? "; add one with `vaultmail account add`"
                : "; known accounts: \(known.joined(separator: ", "))"))
        }
        return account
    }

    /// The full thread id for an id or a unique prefix of one.
    public func threadId(_ prefix: String) async throws -> String {
        try resolve(prefix, try await mailboxes.threadIds(withPrefix: prefix), kind: "thread", listing: "vaultmail threads")
    }

    public func emailId(_ prefix: String) async throws -> String {
        try resolve(prefix, try await mailboxes.emailIds(withPrefix: prefix), kind: "email", listing: "vaultmail show THREAD-ID")
    }

    private func resolve(_ prefix: String, _ matches: [String], kind: String, listing: String) throws -> String {
        switch matches.count {
        case 1: return matches[0]
        case 0: throw CommandError("no \(kind) with id '\(prefix)'; `\(listing)` shows the ids")
        default: throw CommandError("'\(prefix)' matches more than one \(kind); give more characters of the id", usage: true)
        }
    }

    /// A folder of the account by type keyword (inbox, sent, …) or by name or path.
    public func folder(_ name: String, of account: Account) async throws -> Folder {
        let folders = try await mailboxes.folders(accountId: account.id)
        let keyword = name.lowercased()
        if let type = FolderType(rawValue: keyword) ?? (keyword == "junk" ? .spam : nil),
           let folder = folders.first(where: { $0.folderType == type }) {
            return folder
        }
        if let folder = folders.first(where: { $0.name == name || $0.path == name })
            ?? folders.first(where: { $0.name.lowercased() == keyword || $0.path.lowercased() == keyword }) {
            return folder
        }
        let known = folders.map(\.name).sorted()
        throw CommandError("account '\(account.name)' has no folder '\(name)'" + (known.isEmpty
            ? "; run `vaultmail sync \(account.name)` to learn its folders"
            : "; its folders: \(known.joined(separator: ", "))"))
    }
}
