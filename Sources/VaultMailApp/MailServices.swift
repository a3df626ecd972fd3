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
    /// Reads from the store; archive, delete, read, star and move go to the server first.
    public let emails: IMAPEmailRepository

    public init(database: AppDatabase, credentials: AccountCredentials, clock: any WallClock = SystemWallClock()) {
        let accounts = GRDBAccountRepository(database: database)
        let local = GRDBEmailRepository(database: database)
        let syncStore = GRDBSyncRepository(database: database)
        self.credentials = credentials
        connections = IMAPConnectionPool(credentials: credentials)
        sync = SyncEmailsUseCase(accounts: accounts, store: local, syncStore: syncStore, parser: GMimeMessageParser(),
                                 connections: connections, clock: clock)
        emails = IMAPEmailRepository(local: local, syncStore: syncStore, accounts: accounts, connections: connections)
    }
}
