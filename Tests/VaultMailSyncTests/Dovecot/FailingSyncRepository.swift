import Foundation
import Synchronization
import VaultMailCore
import VaultMailStore

/// A `SyncRepository` that passes everything to the store but can fail (as a full disk or a
/// crash would) after a number of stored sync batches, or run a hook after each.
struct FailingSyncRepository: SyncRepository {
    final class Control: Sendable {
        private struct State {
            var failAfter: Int?
            var stored = 0
            var afterBatch: (@Sendable (Int) -> Void)?
        }

        private let state: Mutex<State>

        init(failAfterBatches: Int?) {
            state = Mutex(State(failAfter: failAfterBatches))
        }

        func disarm() { state.withLock { $0.failAfter = nil } }

        var afterBatch: (@Sendable (Int) -> Void)? {
            get { state.withLock { $0.afterBatch } }
            set { state.withLock { $0.afterBatch = newValue } }
        }

        /// Whether the next batch must fail.
        func shouldFail() -> Bool {
            state.withLock { state in state.failAfter.map { state.stored >= $0 } ?? false }
        }

        func stored() -> (Int, (@Sendable (Int) -> Void)?) {
            state.withLock { state in
                state.stored += 1
                return (state.stored, state.afterBatch)
            }
        }
    }

    struct InjectedFailure: Error, CustomStringConvertible {
        var description: String { "injected failure: the disk is full" }
    }

    let base: GRDBSyncRepository
    let control: Control

    func storeSyncBatch(_ batch: SyncBatch) async throws -> [Email] {
        if control.shouldFail() { throw InjectedFailure() }
        let result = try await base.storeSyncBatch(batch)
        let (count, hook) = control.stored()
        hook?(count)
        return result
    }

    func addOrUpdateFolders(_ folders: [Folder]) async throws { try await base.addOrUpdateFolders(folders) }
    func renameFolder(id: String, toPath path: String, name: String) async throws -> String {
        try await base.renameFolder(id: id, toPath: path, name: name)
    }
    func deleteFolders(ids: [String]) async throws { try await base.deleteFolders(ids: ids) }
    func updateSyncState(folderId: String, _ state: FolderSyncState) async throws { try await base.updateSyncState(folderId: folderId, state) }
    func resetFolder(id: String, uidValidity: UInt32) async throws { try await base.resetFolder(id: id, uidValidity: uidValidity) }
    func removeUnconfirmedLinks(folderId: String) async throws -> Int { try await base.removeUnconfirmedLinks(folderId: folderId) }
    func uidMap(folderId: String) async throws -> [UInt32: String] { try await base.uidMap(folderId: folderId) }
    func emails(folderId: String, uids: [UInt32]) async throws -> [UInt32: Email] { try await base.emails(folderId: folderId, uids: uids) }
    func emails(accountId: String, messageIds: [String]) async throws -> [Email] { try await base.emails(accountId: accountId, messageIds: messageIds) }
    func existingEmailIds(among ids: [String]) async throws -> Set<String> { try await base.existingEmailIds(among: ids) }
    func threadingFacts(accountId: String, mentioning messageIds: Set<String>) async throws -> [ThreadingFacts] {
        try await base.threadingFacts(accountId: accountId, mentioning: messageIds)
    }
    func links(emailIds: [String]) async throws -> [EmailFolder] { try await base.links(emailIds: emailIds) }
    func emailIdentities(accountId: String, messageIds: [String]) async throws -> [EmailIdentity] {
        try await base.emailIdentities(accountId: accountId, messageIds: messageIds)
    }
    func pendingIdentityCheck(folderId: String) async throws -> [UInt32: EmailIdentity]? { try await base.pendingIdentityCheck(folderId: folderId) }
    func finishIdentityCheck(folderId: String, droppingUnconfirmed emailIds: [String], keepingOrphans: Bool) async throws -> [String] {
        try await base.finishIdentityCheck(folderId: folderId, droppingUnconfirmed: emailIds, keepingOrphans: keepingOrphans)
    }
    func applyServerFlags(folderId: String, _ flags: [ServerFlags]) async throws -> Int { try await base.applyServerFlags(folderId: folderId, flags) }
    func removeLinks(folderId: String, uids: [UInt32], keepingOrphans: Bool) async throws -> [String] {
        try await base.removeLinks(folderId: folderId, uids: uids, keepingOrphans: keepingOrphans)
    }
    func deleteEmailsWithoutLinks(among ids: [String]) async throws -> Int { try await base.deleteEmailsWithoutLinks(among: ids) }
    func setLinkUIDs(_ links: [EmailFolder]) async throws { try await base.setLinkUIDs(links) }
}
