/// Reads thread lists, counts, folders and the outbox for the thread list (AC-U-14).
/// Every repository error comes out as a `ThreadListError`.
public struct FetchThreadsUseCase: Sendable {
    private let repository: any EmailRepository

    public init(repository: any EmailRepository) {
        self.repository = repository
    }

    /// A page of a folder's threads. `accountId` must own the folder.
    public func fetchThreads(
        accountId: String,
        folderId: String,
        category: AICategory? = nil,
        cursor: ThreadCursor? = nil,
        pageSize: Int = AppConstants.threadListPageSize
    ) async throws(ThreadListError) -> ThreadPage {
        let folder = try await fetch { try await repository.getFolder(id: folderId) }
        guard let folder, folder.accountId == accountId else { throw .folderNotFound(id: folderId) }
        return try await fetch {
            try await repository.getThreads(folderId: folderId, category: category, cursor: cursor, limit: pageSize)
        }
    }

    /// A page of every account's threads in folders of one type, merged by date.
    public func fetchUnifiedThreads(
        folderType: FolderType = .inbox,
        category: AICategory? = nil,
        cursor: ThreadCursor? = nil,
        pageSize: Int = AppConstants.threadListPageSize
    ) async throws(ThreadListError) -> ThreadPage {
        try await fetch {
            try await repository.getThreadsUnified(folderType: folderType, category: category, cursor: cursor, limit: pageSize)
        }
    }

    /// Unread threads per category in a folder (`nil` key: all categories).
    public func fetchUnreadCounts(folderId: String) async throws(ThreadListError) -> [AICategory?: Int] {
        try await fetch { try await repository.getUnreadCounts(folderId: folderId) }
    }

    /// Unread threads per category across all accounts' folders of one type.
    public func fetchUnreadCountsUnified(folderType: FolderType = .inbox) async throws(ThreadListError) -> [AICategory?: Int] {
        try await fetch { try await repository.getUnreadCountsUnified(folderType: folderType) }
    }

    public func fetchFolders(accountId: String) async throws(ThreadListError) -> [Folder] {
        try await fetch { try await repository.getFolders(accountId: accountId) }
    }

    /// Queued, sending and failed emails (the virtual Outbox).
    public func fetchOutboxEmails(accountId: String?) async throws(ThreadListError) -> [Email] {
        try await fetch { try await repository.getOutboxEmails(accountId: accountId) }
    }

    private func fetch<T>(_ body: () async throws -> T) async throws(ThreadListError) -> T {
        do {
            return try await body()
        } catch let error as ThreadListError {
            throw error
        } catch RepositoryError.folderNotFound(let id) {
            throw .folderNotFound(id: id)
        } catch RepositoryError.threadNotFound(let id) {
            throw .threadNotFound(id: id)
        } catch {
            throw .fetchFailed(underlying: error)
        }
    }
}
