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

    private func act(_ body: () async throws -> Void) async throws(ThreadListError) {
        do {
            try await body()
        } catch {
            throw Self.map(error)
        }
    }

    private func wrap(_ result: BatchActionResult) -> BatchActionResult {
        BatchActionResult(
            succeeded: result.succeeded,
            failed: result.failed.map { (id: $0.id, error: Self.map($0.error)) }
        )
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
