import Foundation
import VaultMailCore
import VaultMailIMAP

/// Watches an account's inbox with IMAP IDLE and keeps the store current (AC-F-05, NOTIF-21).
///
/// `events(accountId:)` opens a connection of its own (IDLE occupies it), syncs the inbox once,
/// then waits in IDLE. Whenever the server reports something (new mail, flags, expunges) the
/// inbox is synced through `SyncEmailsUseCase` and what changed is yielded: `.newMail` carries
/// the new emails for the notification coordinator. IDLE is renewed every `renewInterval`.
/// When the connection fails (a drop, a network change, a killed server) the monitor yields
/// `.disconnected`, waits (doubling from `initialBackoff` up to `maximumBackoff`), reconnects
/// and syncs the inbox first, so a message that arrived while it was down is not lost.
/// The sequence ends when its consumer stops iterating (or the task is cancelled); it
/// throws only when the account does not exist.
public final class IDLEMonitorUseCase: Sendable {
    let sync: SyncEmailsUseCase
    let options: IDLEMonitorOptions

    public init(sync: SyncEmailsUseCase, options: IDLEMonitorOptions = IDLEMonitorOptions()) {
        self.sync = sync
        self.options = options
    }

    /// Events of one account's inbox, until the consumer stops.
    public func events(accountId: String) -> AsyncThrowingStream<IDLEMonitorEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.monitor(accountId: accountId) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func monitor(accountId: String, yield: @Sendable (IDLEMonitorEvent) -> Void) async throws {
        var backoff = options.initialBackoff
        while !Task.isCancelled {
            let account = try await sync.requireAccount(accountId)
            var connection: IMAPConnection?
            do {
                let inbox = try await sync.inboxFolder(of: account)
                let imap = try await sync.connections.openDedicatedConnection(for: account)
                connection = imap
                _ = try await imap.examine(inbox.path)
                backoff = options.initialBackoff
                // Catch up first: whatever arrived before IDLE starts (or while disconnected).
                try await syncInbox(account: account, folderId: inbox.id, yield: yield)
                while !Task.isCancelled {
                    yield(.listening)
                    let result = try await imap.idle(timeout: options.renewInterval, returnOnEvents: true)
                    if result.ending == .stopped { break }
                    if result.events.isEmpty { continue }  // renewal
                    try await syncInbox(account: account, folderId: inbox.id, yield: yield)
                }
                await imap.logout()
                return
            } catch let error as SyncError where error.kind == .accountNotFound {
                await connection?.disconnect()
                throw error
            } catch {
                await connection?.disconnect()
                if let partial = (error as? SyncError)?.newEmails, !partial.isEmpty { yield(.newMail(partial)) }
                if Task.isCancelled { return }
                yield(.disconnected(error: error, retryIn: backoff))
                do {
                    try await Task.sleep(for: backoff)
                } catch {
                    return
                }
                backoff = min(backoff * 2, options.maximumBackoff)
            }
        }
    }

    private func syncInbox(account: Account, folderId: String, yield: @Sendable (IDLEMonitorEvent) -> Void) async throws {
        let report = try await sync.syncFolderReport(accountId: account.id, folderId: folderId)
        if !report.newEmails.isEmpty { yield(.newMail(report.newEmails)) }
        if report.flagChanges > 0 { yield(.flagsChanged(count: report.flagChanges)) }
        if report.removed > 0 { yield(.expunged(count: report.removed)) }
    }
}
