import Foundation
import VaultMailCore
import VaultMailIMAP

/// Brings an account's mail from its IMAP server into the store and returns what is new
/// (AC-F-06, AC-F-06b, NOTIF-19).
///
/// - **Folders** come from LIST (special-use and well-known names → `FolderType`); folders new,
///   renamed (same UIDVALIDITY under a new name) or deleted on the server are reflected.
/// - **Initial sync** of a folder fetches the messages of the account's `syncWindowDays`
///   (UID SEARCH SINCE), headers and bodies, in batches; each batch is stored with its
///   checkpoint in one transaction, so an interrupted sync resumes where it stopped (E-01).
/// - **Incremental sync** fetches UIDs above the checkpoint, copies flag changes (CHANGEDSINCE
///   with CONDSTORE, a flag sweep otherwise), and removes what the server expunged or moved.
/// - **UIDVALIDITY** changes re-sync the folder without duplicating emails (E-03): an email's
///   id is its Message-ID's, so the re-sync finds and re-links the stored emails.
/// - **Threading**: new mail joins stored conversations (`SyncThreading`); Gmail's X-GM-THRID
///   when offered.
/// - **Accounts** sync independently and concurrently (E-08): one pooled connection each.
/// - **Changes kept offline** (issue 29, `PendingChanges`): a whole-account or one-folder sync
///   first replays the account's changes waiting for the server, so the server's state never
///   undoes what the person did while it could not be reached.
///
/// Every method returns the emails new to the store; callers hand them to the notification
/// coordinator (NOTIF-19 … NOTIF-21a). Errors are `SyncError`s naming the account, mailbox,
/// server and the server's words.
public final class SyncEmailsUseCase: Sendable {
    let accounts: any AccountRepository
    let store: any EmailRepository
    let syncStore: any SyncRepository
    let parser: any MessageParser
    /// The account connections, shared with `IMAPEmailRepository` and `IDLEMonitorUseCase`.
    public let connections: IMAPConnectionPool
    let clock: any WallClock
    let options: SyncOptions
    /// Replays the account's waiting changes before a sync; nil when none are kept.
    let pendingChanges: PendingChanges?
    let onReplay: (@Sendable (PendingChanges.Report) async -> Void)?

    /// - Parameters:
    ///   - pendingChanges: the changes kept while the server could not be reached, replayed
    ///     before each sync of their account; `onReplay` hears what each replay did.
    public init(
        accounts: any AccountRepository, store: any EmailRepository, syncStore: any SyncRepository,
        parser: any MessageParser, connections: IMAPConnectionPool, clock: any WallClock = SystemWallClock(),
        options: SyncOptions = SyncOptions(), pendingChanges: (any PendingChangeRepository)? = nil,
        onReplay: (@Sendable (PendingChanges.Report) async -> Void)? = nil
    ) {
        self.pendingChanges = pendingChanges.flatMap { queue in
            PendingChanges(server: IMAPEmailRepository(
                local: store, syncStore: syncStore, accounts: accounts, connections: connections, pendingChanges: queue), clock: clock)
        }
        self.onReplay = onReplay
        self.accounts = accounts
        self.store = store
        self.syncStore = syncStore
        self.parser = parser
        self.connections = connections
        self.clock = clock
        self.options = options
    }

    /// Syncs the folder list and then every folder, the inbox first.
    @discardableResult
    public func syncAccount(accountId: String) async throws -> [Email] {
        try await syncAccountInboxFirst(accountId: accountId, onInboxSynced: { _ in })
    }

    /// Syncs the folder list, the inbox, calls `onInboxSynced` with the inbox's new emails
    /// (for a quick UI refresh), then the other folders. Returns every new email. A folder the
    /// server refuses is skipped and reported in a `.someFoldersFailed` error at the end; a
    /// lost connection stops the sync at once (its checkpoints keep what was stored).
    @discardableResult
    public func syncAccountInboxFirst(
        accountId: String, onInboxSynced: @Sendable ([Email]) async -> Void
    ) async throws -> [Email] {
        let account = try await requireAccount(accountId)
        await replayWaitingChanges(account)
        let folders = try await syncFolderList(account: account)
        let ordered = folders.filter { $0.folderType == .inbox } + folders.filter { $0.folderType != .inbox }
        var newEmails: [Email] = []
        var failures: [SyncError] = []
        var inboxReported = false
        var detached: [String] = []
        for folder in ordered {
            if inboxReported == false && folder.folderType != .inbox {
                inboxReported = true
                await onInboxSynced(newEmails)
            }
            do {
                let report = try await syncFolder(account: account, folderId: folder.id, keepOrphans: true)
                newEmails += report.newEmails
                detached += report.detachedEmailIds
            } catch let error as SyncError where Self.isFolderLevel(error) {
                newEmails += error.newEmails
                failures.append(error)
            } catch var error as SyncError {
                error.newEmails = newEmails + error.newEmails
                _ = try? await syncStore.deleteEmailsWithoutLinks(among: detached)
                throw error
            }
        }
        if !inboxReported { await onInboxSynced(newEmails) }
        // Messages that left a folder and turned up in no other were expunged: delete them now.
        do {
            try await syncStore.deleteEmailsWithoutLinks(among: detached)
        } catch {
            throw SyncError(.store, account: account, underlying: error)
        }
        if !failures.isEmpty {
            throw SyncError(
                kind: .someFoldersFailed, accountId: account.id, accountName: account.name,
                newEmails: newEmails, folderFailures: failures)
        }
        return newEmails
    }

    /// Syncs one folder (e.g. the inbox after IDLE reported news); returns its new emails.
    @discardableResult
    public func syncFolder(accountId: String, folderId: String) async throws -> [Email] {
        try await syncFolderReport(accountId: accountId, folderId: folderId).newEmails
    }

    /// Syncs one folder and reports everything that changed: new emails, flag changes,
    /// removals, a UIDVALIDITY reset.
    public func syncFolderReport(accountId: String, folderId: String) async throws -> FolderSyncReport {
        let account = try await requireAccount(accountId)
        await replayWaitingChanges(account)
        return try await syncFolder(account: account, folderId: folderId)
    }

    /// Lists the account's folders on the server and brings the stored list in line; returns
    /// the stored folders.
    @discardableResult
    public func syncFolderList(accountId: String) async throws -> [Folder] {
        try await syncFolderList(account: try await requireAccount(accountId))
    }

    // MARK: - Internals

    func requireAccount(_ accountId: String) async throws -> Account {
        let found: Account?
        do {
            found = try await accounts.getAccount(id: accountId)
        } catch {
            throw SyncError(kind: .store, accountId: accountId, underlying: error)
        }
        guard let account = found else { throw SyncError(kind: .accountNotFound, accountId: accountId) }
        return account
    }

    /// The account's changes kept for the server, replayed before its sync reads the server.
    /// A server that cannot be reached leaves them waiting (the sync then fails as usual).
    func replayWaitingChanges(_ account: Account) async {
        guard let pendingChanges, let waiting = try? await pendingChanges.waiting(accountId: account.id), !waiting.isEmpty else { return }
        let report = await pendingChanges.replay(accountId: account.id)
        await onReplay?(report)
    }

    func syncFolder(account: Account, folderId: String, keepOrphans: Bool = false) async throws -> FolderSyncReport {
        var synchronizer = FolderSynchronizer(
            account: account, syncStore: syncStore, parser: parser, now: clock.now, options: options)
        synchronizer.keepOrphans = keepOrphans
        do {
            return try await connections.withConnection(for: account, reuse: .retryOnDrop) { [store, synchronizer] imap in
                // Read the folder inside the account's queue: its checkpoint is current.
                guard let folder = try await store.getFolder(id: folderId), folder.accountId == account.id else {
                    throw SyncError(.folderNotFound, account: account, mailbox: folderId)
                }
                return try await synchronizer.sync(folder, on: imap)  // its errors name the folder
            }
        } catch {
            // Failed before the folder was read (connecting, logging in): name it in the error.
            let path = try? await store.getFolder(id: folderId)?.path
            throw SyncError.wrap(error, account: account, mailbox: path)
        }
    }

    /// A folder-level failure (the server refused this mailbox) rather than a lost connection.
    static func isFolderLevel(_ error: SyncError) -> Bool {
        if error.kind == .folderNotFound { return true }
        guard let imapError = error.underlying as? IMAPError else { return false }
        return imapError.kind == .commandFailed
    }
}
