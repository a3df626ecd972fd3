import Foundation
import Synchronization
import VaultMailCore
import VaultMailIMAP

/// One logged-in IMAP connection per account, shared by the sync engine and the server-side
/// actions, used by one operation at a time.
///
/// Accounts never wait for each other: each has its own connection (an actor on its own
/// thread) and its own queue (E-08). Within an account, operations run in call order, so a
/// folder sync and an archive never interleave their SELECTs. A connection that dropped is
/// opened again on the next use. IDLE needs a connection of its own:
/// `openDedicatedConnection(for:)`.
public final class IMAPConnectionPool: Sendable {
    /// How an operation treats a connection that may have died while unused.
    public enum Reuse: Sendable {
        /// Run; if a reused connection turns out dead (dropped, timed out), run once more on
        /// a new one. For work that is safe to repeat (sync).
        case retryOnDrop
        /// Check a reused connection with NOOP first and reconnect if it is dead; never run
        /// twice. For work that must not repeat (server-side actions).
        case checkFirst
    }

    private let login: AccountLogin
    private let connectTimeout: Duration
    private let readTimeout: Duration
    private let slots = Mutex<[String: AccountConnection]>([:])

    /// - Parameters:
    ///   - credentials: the password or token of each account, asked for on every login.
    ///   - connectTimeout: how long a TCP connect and TLS handshake may take.
    ///   - readTimeout: how long a command may wait for the server's next bytes.
    public init(credentials: any CredentialProvider, connectTimeout: Duration = .seconds(30), readTimeout: Duration = .seconds(60)) {
        login = AccountLogin(credentials: credentials)
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
    }

    /// Runs `body` with the account's connection, connected and logged in, once every earlier
    /// operation of the account has finished.
    public func withConnection<T: Sendable>(
        for account: Account, reuse: Reuse = .retryOnDrop,
        _ body: @Sendable (IMAPConnection) async throws -> T
    ) async throws -> T {
        let slot = slots.withLock { slots in
            if let slot = slots[account.id] { return slot }
            let slot = AccountConnection()
            slots[account.id] = slot
            return slot
        }
        return try await slot.run(account: account, reuse: reuse, opener: { try await self.openDedicatedConnection(for: $0) }, body)
    }

    /// A new connection to the account's server, logged in, owned by the caller (for IDLE).
    /// A refused OAuth2 access token is replaced by a fresh one and tried once more
    /// (`AccountLogin`), so the user sees nothing.
    public func openDedicatedConnection(for account: Account) async throws -> IMAPConnection {
        do {
            return try await login.imapConnection(
                for: account, endpoint: IMAPEndpoint(account: account, connectTimeout: connectTimeout, readTimeout: readTimeout))
        } catch let failure as AccountLogin.SecretUnavailable {
            // Asked before connecting: a credential that cannot be had costs no connection.
            throw SyncError(.credentials, account: account, underlying: failure.underlying)
        }
    }

    /// Logs out of the account's pooled connection (after its running operations finish), as
    /// when the account is removed.
    public func close(accountId: String) async {
        let slot = slots.withLock { $0.removeValue(forKey: accountId) }
        await slot?.close()
    }

    /// Logs out of every pooled connection (after running operations finish).
    public func closeAll() async {
        let all = slots.withLock { slots in
            defer { slots.removeAll() }
            return Array(slots.values)
        }
        for slot in all { await slot.close() }
    }
}
