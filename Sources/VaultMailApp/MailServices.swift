import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
import VaultMailStore
import VaultMailSync

/// The server side of the graph, built the same way for the tool and the daemon: account
/// credentials → IMAP connection pool → the sync use case and the repository whose actions
/// reach the server first.
public struct MailServices: Sendable {
    /// Passwords and OAuth2 access tokens (those in memory) for the connections.
    public let credentials: AccountCredentials
    public let connections: IMAPConnectionPool
    public let sync: SyncEmailsUseCase
    /// Reads from the store; archive, delete, read, star and move go to the server first, and
    /// wait in the store's `pendingChange` table while it cannot be reached (issue 29).
    public let emails: IMAPEmailRepository
    /// Snoozing on the server (issue 33): the Snoozed mailbox and its keywords, on these connections.
    public let snoozeServer: IMAPSnoozeServer
    /// What each replay of waiting changes before a sync did (the daemon reports its problems).
    public let replayReports: AsyncStream<PendingChanges.Report>

    public init(database: AppDatabase, credentials: AccountCredentials, clock: any WallClock = SystemWallClock()) {
        let accounts = GRDBAccountRepository(database: database)
        let local = GRDBEmailRepository(database: database)
        let syncStore = GRDBSyncRepository(database: database)
        let pendingChanges = GRDBPendingChangeRepository(database: database)
        let (reports, continuation) = AsyncStream.makeStream(of: PendingChanges.Report.self, bufferingPolicy: .bufferingNewest(16))
        replayReports = reports
        self.credentials = credentials
        connections = IMAPConnectionPool(credentials: credentials)
        sync = SyncEmailsUseCase(accounts: accounts, store: local, syncStore: syncStore, parser: GMimeMessageParser(),
                                 connections: connections, clock: clock, pendingChanges: pendingChanges,
                                 onReplay: { continuation.yield($0) })
        emails = IMAPEmailRepository(local: local, syncStore: syncStore, accounts: accounts, connections: connections,
                                     pendingChanges: pendingChanges)
        snoozeServer = IMAPSnoozeServer(local: local, syncStore: syncStore, accounts: accounts, connections: connections,
                                        times: GRDBSnoozeRepository(database: database))
    }
}
