import VaultMailCore
import VaultMailIMAP

/// The pool lends the account's connection to `IMAPRemoteMailbox` (filing to Sent, Drafts),
/// so sending logs in to IMAP no more than sync already has (issue 18).
extension IMAPConnectionPool: IMAPConnectionLending {
    /// `withConnection(for:reuse: .checkFirst)`: a reused connection is checked with NOOP
    /// first and the work never runs twice (an APPEND must not be repeated).
    public func lendConnection<T: Sendable>(
        for account: Account, _ body: @Sendable (IMAPConnection) async throws -> T
    ) async throws -> T {
        try await withConnection(for: account, reuse: .checkFirst, body)
    }
}
