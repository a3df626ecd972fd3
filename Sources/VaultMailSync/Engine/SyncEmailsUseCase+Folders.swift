import Foundation
import VaultMailCore
import VaultMailIMAP

extension SyncEmailsUseCase {
    /// LIST → stored folders: new ones added, known ones (by path) get their current name and
    /// type, vanished ones are deleted, unless a new folder has the vanished one's UIDVALIDITY,
    /// in which case it was renamed and keeps its mail and sync state.
    func syncFolderList(account: Account) async throws -> [Folder] {
        let store = self.store
        let syncStore = self.syncStore
        do {
            return try await connections.withConnection(for: account, reuse: .retryOnDrop) { imap in
                let listed = try await imap.listFolders()
                let types = FolderTypeMapping.folderTypes(for: listed)
                let selectable = listed.filter(\.isSelectable)
                let stored = try await store.getFolders(accountId: account.id)
                let storedPaths = Set(stored.map(\.path))
                let serverPaths = Set(selectable.map(\.path))
                var vanished = stored.filter { !serverPaths.contains($0.path) }
                let appeared = selectable.filter { !storedPaths.contains($0.path) }

                if vanished.contains(where: { $0.uidValidity != nil }) {
                    for folder in appeared {
                        guard let status = try? await imap.examine(folder.path) else { continue }
                        let matches = vanished.filter { $0.uidValidity == status.uidValidity }
                        guard matches.count == 1, let renamed = matches.first else { continue }
                        try await syncStore.renameFolder(id: renamed.id, toPath: folder.path, name: folder.name)
                        vanished.removeAll { $0.id == renamed.id }
                    }
                }
                try await syncStore.deleteFolders(ids: vanished.map(\.id))
                try await syncStore.addOrUpdateFolders(selectable.map { folder in
                    Folder(accountId: account.id, name: folder.name, path: folder.path,
                           folderType: types[folder.path] ?? folder.folderType)
                })
                return try await store.getFolders(accountId: account.id)
            }
        } catch {
            throw SyncError.wrap(error, account: account, mailbox: nil)
        }
    }

    /// The account's inbox, listing the folders first when none is stored yet.
    func inboxFolder(of account: Account) async throws -> Folder {
        let known = try await store.getFolders(accountId: account.id)
        if let inbox = known.first(where: { $0.folderType == .inbox }) { return inbox }
        guard let inbox = try await syncFolderList(account: account).first(where: { $0.folderType == .inbox }) else {
            throw SyncError(.folderNotFound, account: account, mailbox: "INBOX")
        }
        return inbox
    }

    // MARK: - Folder freshness (docs/sync.md, "Every folder fresh")

    /// The account's folders whose STATUS on the server differs from what the store holds
    /// (see `statusShowsChanges`): one STATUS per folder on the account's pooled connection,
    /// nothing else. Folders in `skipped` (the inbox IDLE watches) and folders never synced
    /// (their first sync belongs to the whole-account sync) are not asked about; a folder
    /// whose STATUS the server refuses is left to the next whole-account sync.
    public func foldersChangedOnServer(accountId: String, skipping skipped: Set<String> = []) async throws -> [Folder] {
        let account = try await requireAccount(accountId)
        let store = self.store
        do {
            return try await connections.withConnection(for: account, reuse: .retryOnDrop) { imap in
                // Read inside the account's queue: no sync of this account is half-way.
                let folders = try await store.getFolders(accountId: account.id)
                    .filter { !skipped.contains($0.id) && $0.lastSyncDate != nil }
                var changed: [Folder] = []
                for folder in folders {
                    let status: IMAPStatusResponse
                    do {
                        status = try await imap.status(folder.path)
                    } catch let error as IMAPError where error.kind == .commandFailed {
                        continue
                    }
                    if Self.statusShowsChanges(status, comparedWith: folder) { changed.append(folder) }
                }
                return changed
            }
        } catch {
            throw SyncError.wrap(error, account: account, mailbox: nil)
        }
    }

    /// Whether a STATUS (asked for, or sent by the server under NOTIFY) shows something the
    /// stored folder lacks: another UIDVALIDITY, a UIDNEXT above the checkpoint (new mail),
    /// another message count (new or expunged), another HIGHESTMODSEQ (any change, flags
    /// included, with CONDSTORE) or another unseen count. Items the response left out are not
    /// compared.
    public static func statusShowsChanges(_ status: IMAPStatusResponse, comparedWith folder: Folder) -> Bool {
        if let validity = status.uidValidity, validity != folder.uidValidity { return true }
        // A sync leaves the checkpoint at UIDNEXT - 1; a checkpoint above it is not news.
        if let next = status.uidNext, next > (folder.lastSyncedUID ?? 0) + 1 { return true }
        if let messages = status.messages, Int(messages) != folder.totalCount { return true }
        if let modSeq = status.highestModSeq, let stored = folder.highestModSeq, modSeq != stored { return true }
        if let unseen = status.unseen, Int(unseen) != folder.unreadCount { return true }
        return false
    }

    /// Syncs these folders of the account as one: an email that left one of them and landed
    /// in another (a move seen as an expunge and new mail at once) stays the same email;
    /// what no folder of the account holds any more is deleted at the end. A folder the server
    /// refuses is skipped (its report holds what was stored before the refusal); a lost
    /// connection stops at once, its error holding every new email stored so far.
    func syncFolders(account: Account, folderIds: [String]) async throws -> [FolderSyncReport] {
        var reports: [FolderSyncReport] = []
        var detached: [String] = []
        for folderId in folderIds {
            do {
                let report = try await syncFolder(account: account, folderId: folderId, keepOrphans: true)
                detached += report.detachedEmailIds
                reports.append(report)
            } catch let error as SyncError where Self.isFolderLevel(error) {
                var partial = FolderSyncReport(folderId: folderId)
                partial.newEmails = error.newEmails
                reports.append(partial)
            } catch var error as SyncError {
                error.newEmails = reports.flatMap(\.newEmails) + error.newEmails
                _ = try? await syncStore.deleteEmailsWithoutLinks(among: detached)
                throw error
            }
        }
        do {
            try await syncStore.deleteEmailsWithoutLinks(among: detached)
        } catch {
            throw SyncError(.store, account: account, underlying: error)
        }
        return reports
    }
}
