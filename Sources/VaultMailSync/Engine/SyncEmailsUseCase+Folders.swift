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
}
