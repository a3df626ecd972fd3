import VaultMailCore
import VaultMailMIME
import VaultMailStore
import VaultMailWeb

extension AppDependencies {
    /// What the web app works through: this graph's use cases (actions reach the server first
    /// when the graph was built over the IMAP-backed repository), attachments read out of the
    /// stored sources, and the store's change feed.
    public func webMail() -> WebMail {
        let local = GRDBEmailRepository(database: database)
        var mail = WebMail(
            fetchThreads: fetchThreads, actions: manageThreadActions, markRead: markRead, emails: emailRepository,
            accounts: accountRepository,
            attachments: ReadAttachmentUseCase(emails: emailRepository, sources: local, parts: GMimeMessageParser()),
            changes: GRDBMailChangeFeed(database: database), settings: settingsStore, coordinator: notificationSyncCoordinator)
        mail.search = SearchMailUseCase(search: GRDBMailSearch(database: database), clock: mail.clock)
        return mail
    }
}
