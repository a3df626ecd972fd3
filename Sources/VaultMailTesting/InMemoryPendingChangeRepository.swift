import Foundation
import VaultMailCore

/// `PendingChangeRepository` in memory, for Core tests.
public actor InMemoryPendingChangeRepository: PendingChangeRepository {
    private var changes: [PendingChange] = []
    private var nextId: Int64 = 1

    public init() {}

    @discardableResult
    public func add(_ change: PendingChange) async throws -> PendingChange {
        var added = change
        added.id = nextId
        nextId += 1
        changes.append(added)
        return added
    }

    public func pending(accountId: String?) async throws -> [PendingChange] {
        changes.filter { accountId == nil || $0.accountId == accountId }
    }

    public func change(id: Int64) async throws -> PendingChange? { changes.first { $0.id == id } }

    public func remove(id: Int64) async throws { changes.removeAll { $0.id == id } }

    public func recordRefusal(id: Int64, reason: String) async throws {
        guard let index = changes.firstIndex(where: { $0.id == id }) else { return }
        changes[index].attempts += 1
        changes[index].lastError = reason
    }

    public func learnUIDs(_ links: [EmailFolder], accountId: String) async throws {}
}

/// A `TriageServer` whose replies are scripted: unreachable while `reachable` is false, refusing
/// the threads in `refusing`, and recording what it replayed, in order.
public actor ScriptedTriageServer: TriageServer {
    /// The error it throws while the server cannot be reached.
    public struct Unreachable: Error {}
    public struct Refused: Error, CustomStringConvertible {
        public var description: String { "NO [CANNOT] refused" }
    }

    public nonisolated let local: any EmailRepository
    public nonisolated let pendingChanges: (any PendingChangeRepository)?
    public var reachable = false
    public var refusing: Set<String> = []
    public private(set) var replayed: [PendingChange] = []

    public init(local: any EmailRepository, pendingChanges: any PendingChangeRepository) {
        self.local = local
        self.pendingChanges = pendingChanges
    }

    public func set(reachable: Bool, refusing: Set<String> = []) {
        self.reachable = reachable
        self.refusing = refusing
    }

    public nonisolated func isUnreachable(_ error: any Error) -> Bool { error is Unreachable }

    public func copies(threadId: String) async throws -> [EmailFolder] {
        try await local.getEmails(threadId: threadId).map { EmailFolder(emailId: $0.id, folderId: "inbox", uid: 1) }
    }

    public func replay(_ change: PendingChange) async throws -> ReplayOutcome {
        guard reachable else { throw Unreachable() }
        if refusing.contains(change.threadId) { throw Refused() }
        replayed.append(change)
        try await pendingChanges?.remove(id: change.id)
        return .done
    }
}
