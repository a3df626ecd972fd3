import Foundation
import VaultMailCore
import VaultMailIMAP

/// The pooled connection of one account and the queue of operations waiting for it.
actor AccountConnection {
    private var connection: IMAPConnection?
    private var endpoint: IMAPEndpoint?
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(
        account: Account, reuse: IMAPConnectionPool.Reuse,
        opener: @Sendable (Account) async throws -> IMAPConnection,
        _ body: @Sendable (IMAPConnection) async throws -> T
    ) async throws -> T {
        await acquire()
        defer { release() }
        var (imap, reused) = try await current(for: account, opener: opener)
        if reused, reuse == .checkFirst {
            do {
                _ = try await imap.noop()
            } catch where isConnectionLevel(error) {
                drop()
                (imap, reused) = try await current(for: account, opener: opener)
            }
        }
        do {
            return try await body(imap)
        } catch where isConnectionLevel(error) && reused && reuse == .retryOnDrop {
            drop()
            let (fresh, _) = try await current(for: account, opener: opener)
            do {
                return try await body(fresh)
            } catch where isConnectionLevel(error) {
                drop()
                throw error
            }
        } catch where isConnectionLevel(error) {
            drop()
            throw error
        }
    }

    func close() async {
        await acquire()
        defer { release() }
        await connection?.logout()
        connection = nil
    }

    /// The live connection for `account`, opened when there is none (or its server changed);
    /// `reused` is true when it was already open.
    private func current(
        for account: Account, opener: @Sendable (Account) async throws -> IMAPConnection
    ) async throws -> (IMAPConnection, reused: Bool) {
        let wanted = IMAPEndpoint(account: account)
        if let connection, endpoint?.host == wanted.host, endpoint?.port == wanted.port,
           endpoint?.security == wanted.security, endpoint?.caFile == wanted.caFile,
           await connection.isAuthenticated {
            return (connection, true)
        }
        if let connection { await connection.disconnect() }
        connection = nil
        let fresh = try await opener(account)
        connection = fresh
        endpoint = fresh.endpoint
        return (fresh, false)
    }

    private func drop() {
        let old = connection
        connection = nil
        if let old { Task { await old.disconnect() } }
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// The connection is gone (dropped, timed out, never there), so a new one may succeed;
/// looks through `SyncError` to the IMAP error it wraps.
func isConnectionLevel(_ error: any Error) -> Bool {
    let imapError = (error as? IMAPError) ?? ((error as? SyncError)?.underlying as? IMAPError)
    switch imapError?.kind {
    case .connectionLost, .timedOut, .notConnected, .connectionFailed: return true
    default: return false
    }
}
