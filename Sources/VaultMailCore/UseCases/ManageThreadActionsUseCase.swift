/// Archive, delete, read, star and move threads, singly or in batches (AC-U-15).
/// Single actions throw `ThreadListError`; batch actions report which threads failed.
public struct ManageThreadActionsUseCase: Sendable {
    private let repository: any EmailRepository

    public init(repository: any EmailRepository) {
        self.repository = repository
    }

    public func archiveThread(id: String) async throws(ThreadListError) {
        try await act { try await repository.archiveThread(id: id) }
    }

    public func deleteThread(id: String) async throws(ThreadListError) {
        try await act { try await repository.deleteThread(id: id) }
    }

    public func toggleReadStatus(threadId: String) async throws(ThreadListError) {
        try await act { try await repository.toggleReadStatus(threadId: threadId) }
    }

    public func toggleStarStatus(threadId: String) async throws(ThreadListError) {
        try await act { try await repository.toggleStarStatus(threadId: threadId) }
    }

    public func moveThread(id: String, toFolderId: String) async throws(ThreadListError) {
        try await act { try await repository.moveThread(id: id, toFolderId: toFolderId) }
    }

    public func setRead(threadId: String, isRead: Bool) async throws(ThreadListError) {
        try await act { try await repository.setThreadRead(id: threadId, isRead: isRead) }
    }

    public func setStarred(threadId: String, isStarred: Bool) async throws(ThreadListError) {
        try await act { try await repository.setThreadStarred(id: threadId, isStarred: isStarred) }
    }

    public func archiveThreads(ids: [String]) async -> BatchActionResult {
        wrap(await repository.archiveThreads(ids: ids))
    }

    public func deleteThreads(ids: [String]) async -> BatchActionResult {
        wrap(await repository.deleteThreads(ids: ids))
    }

    public func markThreadsRead(ids: [String]) async -> BatchActionResult {
        wrap(await repository.markThreadsRead(ids: ids))
    }

    public func markThreadsUnread(ids: [String]) async -> BatchActionResult {
        wrap(await repository.markThreadsUnread(ids: ids))
    }

    public func starThreads(ids: [String], isStarred: Bool = true) async -> BatchActionResult {
        wrap(await repository.starThreads(ids: ids, isStarred: isStarred))
    }

    public func moveThreads(ids: [String], toFolderId: String) async -> BatchActionResult {
        wrap(await repository.moveThreads(ids: ids, toFolderId: toFolderId))
    }

    /// A single action; one done on the server whose conversation a sync had already removed
    /// here is done (`DoneOnServer.alreadyGone`); one whose copy here could not follow throws
    /// `.actionFailed(DoneOnServer)`, whose words say it was done on the server.
    private func act(_ body: () async throws -> Void) async throws(ThreadListError) {
        do {
            try await body()
        } catch let done as DoneOnServer where done.alreadyGone {
            return
        } catch {
            throw Self.map(error)
        }
    }

    /// Issue 34: an action whose server step succeeded is done, whatever happened here after
    /// it. Those whose copy here could not follow are also in `notUpdatedHere`, with why.
    private func wrap(_ result: BatchActionResult) -> BatchActionResult {
        var wrapped = BatchActionResult(succeeded: result.succeeded)
        wrapped.kept = result.kept
        wrapped.notUpdatedHere = result.notUpdatedHere
        for (id, error) in result.failed {
            if let done = error as? DoneOnServer {
                wrapped.succeeded.append(id)
                if !done.alreadyGone { wrapped.notUpdatedHere.append((id: id, error: done)) }
            } else {
                wrapped.failed.append((id: id, error: Self.map(error)))
            }
        }
        return wrapped
    }

    /// Repository errors as the thread list's errors; not-found keeps its own case.
    static func map(_ error: any Error) -> ThreadListError {
        switch error {
        case let error as ThreadListError: error
        case RepositoryError.threadNotFound(let id): .threadNotFound(id: id)
        case RepositoryError.folderNotFound(let id): .folderNotFound(id: id)
        default: .actionFailed(underlying: error)
        }
    }
}
