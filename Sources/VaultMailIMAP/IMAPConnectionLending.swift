public import VaultMailCore

/// Lends a connection logged in to an account's IMAP server for one piece of work: in the
/// app, the account's pooled connection (`IMAPConnectionPool` in VaultMailSync), shared with
/// sync and the server-side actions, so work done through it costs no login of its own.
public protocol IMAPConnectionLending: Sendable {
    /// Runs `body` with the account's connection, connected and logged in, once earlier work
    /// of the account is done. A connection found dead is opened again before `body` runs;
    /// `body` never runs twice.
    func lendConnection<T: Sendable>(
        for account: Account, _ body: @Sendable (IMAPConnection) async throws -> T
    ) async throws -> T
}
