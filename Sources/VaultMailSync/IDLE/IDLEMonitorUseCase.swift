import Foundation
import VaultMailCore
import VaultMailIMAP

/// Watches an account's inbox with IMAP IDLE, and its other folders with NOTIFY or STATUS
/// checks, and keeps the store current (AC-F-05, NOTIF-21, issue 17).
///
/// `events(accountId:)` opens a connection of its own (IDLE occupies it), syncs the inbox once,
/// then waits in IDLE. Whenever the server reports something (new mail, flags, expunges) the
/// inbox is synced through `SyncEmailsUseCase` and what changed is yielded: `.newMail` carries
/// the new emails for the notification coordinator. IDLE is renewed every `renewInterval`.
///
/// The other folders (Junk, Sent, Archive, the user's own): where the server offers NOTIFY
/// (RFC 5465), the IDLE connection asks for it, and each untagged STATUS the server sends
/// about another folder (during IDLE or between commands) syncs that folder if it differs from
/// the store. Without NOTIFY (or when the server refuses it or overflows), every
/// `statusCheckInterval` one STATUS per folder on the pooled connection finds the folders that
/// changed, and only those are synced. Either way each synced folder is yielded as
/// `.folderSynced`; after every (re)connection one STATUS check catches up first.
///
/// When the connection fails (a drop, a network change, a killed server) the monitor yields
/// `.disconnected`, waits (doubling from `initialBackoff` up to `maximumBackoff`, or until
/// `retryNow(accountId:)`), reconnects and syncs the inbox first, so a message that arrived
/// while it was down is not lost.
/// The sequence ends when its consumer stops iterating (or the task is cancelled); it
/// throws only when the account does not exist.
public final class IDLEMonitorUseCase: Sendable {
    let sync: SyncEmailsUseCase
    let options: IDLEMonitorOptions
    private let waits = RetryWaits()

    public init(sync: SyncEmailsUseCase, options: IDLEMonitorOptions = IDLEMonitorOptions()) {
        self.sync = sync
        self.options = options
    }

    /// Ends the account's wait before its next reconnection now: it is tried again at once
    /// (issue 34: the user signed in again with `vaultmail account reauth`). Without a wait
    /// under way, its next wait is skipped.
    public func retryNow(accountId: String) {
        waits.retryNow(accountId: accountId)
    }

    /// Events of one account's inbox and other folders, until the consumer stops.
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

    private func monitor(accountId: String, yield: @escaping @Sendable (IDLEMonitorEvent) -> Void) async throws {
        var backoff = options.initialBackoff
        while !Task.isCancelled {
            let account = try await sync.requireAccount(accountId)
            var connection: IMAPConnection?
            do {
                let inbox = try await sync.inboxFolder(of: account)
                let imap = try await sync.connections.openDedicatedConnection(for: account)
                connection = imap
                _ = try await imap.examine(inbox.path)
                let watch = try await watchOtherFolders(on: imap)
                backoff = options.initialBackoff
                // Catch up first: whatever arrived before IDLE starts (or while disconnected).
                try await syncInbox(account: account, folderId: inbox.id, yield: yield)
                if let watch {
                    yield(.watchingOtherFolders(watch))
                    try await checkOtherFolders(account: account, inbox: inbox, yield: yield)
                }
                try await listen(on: imap, account: account, inbox: inbox, watch: watch, yield: yield)
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
                    try await waits.wait(backoff, accountId: accountId)
                } catch {
                    return
                }
                backoff = min(backoff * 2, options.maximumBackoff)
            }
        }
    }

    /// IDLE until stopped, syncing what the server reports; STATUS checks beside it when the
    /// other folders are watched that way (or NOTIFY overflows).
    private func listen(
        on imap: IMAPConnection, account: Account, inbox: Folder, watch: IDLEMonitorEvent.OtherFolderWatch?,
        yield: @escaping @Sendable (IDLEMonitorEvent) -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var checking = false
            if case .statusChecks = watch {
                checking = true
                group.addTask { await self.checkPeriodically(account: account, inbox: inbox, yield: yield) }
            }
            while !Task.isCancelled {
                yield(.listening)
                let result = try await imap.idle(timeout: options.renewInterval)
                if result.ending == .stopped { break }
                if result.events.isEmpty { continue }  // renewal
                var statuses: [IMAPStatusResponse] = []
                var inboxChanged = false
                for event in result.events {
                    switch event {
                    case .mailboxStatus(let status) where status.mailbox != inbox.path: statuses.append(status)
                    case .notificationOverflow:
                        // The server gave up notifying this connection: check instead.
                        if !checking {
                            checking = true
                            let interval = options.statusCheckInterval
                            yield(.watchingOtherFolders(.statusChecks(interval: interval)))
                            group.addTask { await self.checkPeriodically(account: account, inbox: inbox, yield: yield) }
                        }
                    default: inboxChanged = true
                    }
                }
                if inboxChanged && statuses.isEmpty {
                    try await syncInbox(account: account, folderId: inbox.id, yield: yield)
                } else if !statuses.isEmpty {
                    try await syncReported(statuses, account: account, inbox: inbox, withInbox: inboxChanged, yield: yield)
                }
            }
            group.cancelAll()
        }
    }

    /// Decides how the other folders are watched on this connection: NOTIFY when offered and
    /// accepted (set up here), else STATUS checks; nil for the inbox only.
    private func watchOtherFolders(on imap: IMAPConnection) async throws -> IDLEMonitorEvent.OtherFolderWatch? {
        let checks = IDLEMonitorEvent.OtherFolderWatch.statusChecks(interval: options.statusCheckInterval)
        switch options.otherFolders {
        case .inboxOnly: return nil
        case .statusChecks: return checks
        case .automatic:
            guard await imap.capabilities.notify else { return checks }
            do {
                try await imap.notifyMailboxChanges()
                return .notify
            } catch let error as IMAPError where error.kind == .commandFailed || error.kind == .unsupported {
                return checks  // offered but refused (e.g. not for these mailboxes)
            }
        }
    }

    /// STATUS checks every `statusCheckInterval` until cancelled. A failed check (the pooled
    /// connection dropped, the server busy) is left to the next one and to the periodic
    /// whole-account sync, which reports connection problems.
    private func checkPeriodically(account: Account, inbox: Folder, yield: @escaping @Sendable (IDLEMonitorEvent) -> Void) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: options.statusCheckInterval)
            } catch {
                return
            }
            do {
                try await checkOtherFolders(account: account, inbox: inbox, yield: yield)
            } catch let error as SyncError {
                if !error.newEmails.isEmpty { yield(.newMail(error.newEmails)) }
            } catch {
                continue
            }
        }
    }

    /// One STATUS per other folder; the ones that changed are synced and yielded.
    private func checkOtherFolders(account: Account, inbox: Folder, yield: @Sendable (IDLEMonitorEvent) -> Void) async throws {
        let changed = try await sync.foldersChangedOnServer(accountId: account.id, skipping: [inbox.id])
        guard !changed.isEmpty else { return }
        let reports = try await sync.syncFolders(account: account, folderIds: changed.map(\.id))
        for (folder, report) in zip(changed, reports) { yield(.folderSynced(folder, report)) }
    }

    /// Folders NOTIFY reported (with the inbox when it changed too, so a message moved
    /// between them stays one email): those whose status differs from the store are synced.
    private func syncReported(
        _ statuses: [IMAPStatusResponse], account: Account, inbox: Folder, withInbox: Bool,
        yield: @Sendable (IDLEMonitorEvent) -> Void
    ) async throws {
        let stored: [Folder]
        do {
            stored = try await sync.store.getFolders(accountId: account.id)
        } catch {
            throw SyncError(.store, account: account, underlying: error)
        }
        let byPath = Dictionary(stored.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var changed: [Folder] = []
        for status in statuses {
            // Unknown or never synced folders are left to the whole-account sync.
            guard let folder = byPath[status.mailbox], folder.lastSyncDate != nil, folder.id != inbox.id,
                !changed.contains(where: { $0.id == folder.id }),
                SyncEmailsUseCase.statusShowsChanges(status, comparedWith: folder)
            else { continue }
            changed.append(folder)
        }
        let ids = changed.map(\.id) + (withInbox ? [inbox.id] : [])
        guard !ids.isEmpty else { return }
        let reports = try await sync.syncFolders(account: account, folderIds: ids)
        for (folder, report) in zip(changed, reports) { yield(.folderSynced(folder, report)) }
        if withInbox, let report = reports.last { yieldInbox(report, yield: yield) }
    }

    private func syncInbox(account: Account, folderId: String, yield: @Sendable (IDLEMonitorEvent) -> Void) async throws {
        yieldInbox(try await sync.syncFolderReport(accountId: account.id, folderId: folderId), yield: yield)
    }

    private func yieldInbox(_ report: FolderSyncReport, yield: @Sendable (IDLEMonitorEvent) -> Void) {
        if !report.newEmails.isEmpty { yield(.newMail(report.newEmails)) }
        if report.flagChanges > 0 { yield(.flagsChanged(count: report.flagChanges)) }
        if report.removed > 0 { yield(.expunged(count: report.removed)) }
    }
}
