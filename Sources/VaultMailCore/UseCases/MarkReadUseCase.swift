/// Marks mail read: a whole thread (NOTIF-06a) or single emails.
public struct MarkReadUseCase: Sendable {
    private let repository: any EmailRepository

    public init(repository: any EmailRepository) {
        self.repository = repository
    }

    /// Marks every unread email of the thread read. A thread that no longer exists is
    /// reported as `threadNotFound`.
    public func markAllRead(in thread: EmailThread) async throws(ThreadListError) {
        do {
            let emails = try await repository.getEmails(threadId: thread.id)
            guard !emails.isEmpty else { throw ThreadListError.threadNotFound(id: thread.id) }
            let unread = emails.filter { !$0.isRead }.map(\.id)
            guard !unread.isEmpty else { return }
            try await repository.setEmailsRead(ids: unread, isRead: true)
        } catch let done as DoneOnServer where done.alreadyGone {
            return
        } catch {
            throw ManageThreadActionsUseCase.map(error)
        }
    }

    public func markRead(emailId: String) async throws(ThreadListError) {
        do {
            try await repository.setEmailsRead(ids: [emailId], isRead: true)
        } catch let done as DoneOnServer where done.alreadyGone {
            return
        } catch {
            throw ManageThreadActionsUseCase.map(error)
        }
    }
}
