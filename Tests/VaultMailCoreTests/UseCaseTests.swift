import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// A mock repository with one account, its standard folders and `count` threads in the inbox.
private func seeded(threads count: Int, categories: [AICategory?] = [nil]) async throws -> (MockEmailRepository, [Folder]) {
    let repository = MockEmailRepository()
    let account = MailFixtures.account()
    let folders = MailFixtures.standardFolders(accountId: account.id)
    try await repository.saveFolders(folders)
    let emails = (0..<count).map { n in
        MailFixtures.incoming(
            MailFixtures.email(accountId: account.id, number: n, category: categories[n % categories.count]),
            in: [folders.of(.inbox)])
    }
    try await repository.saveEmails(emails)
    await repository.reset()
    return (repository, folders)
}

@Suite("FetchThreadsUseCase (AC-U-14)")
struct FetchThreadsUseCaseTests {
    @Test("AC-U-14: first page is the 25 newest by latestDate; the cursor pages on to older threads")
    func pagination() async throws {
        let (repository, folders) = try await seeded(threads: 30)
        let useCase = FetchThreadsUseCase(repository: repository)
        let inbox = folders.of(.inbox)
        let first = try await useCase.fetchThreads(accountId: inbox.accountId, folderId: inbox.id)
        #expect(first.threads.count == 25)
        #expect(first.hasMore)
        #expect(first.threads.map(\.latestDate) == first.threads.map(\.latestDate).sorted(by: >))
        let second = try await useCase.fetchThreads(accountId: inbox.accountId, folderId: inbox.id, cursor: first.nextCursor)
        #expect(second.threads.count == 5)
        #expect(!second.hasMore)
        #expect(second.nextCursor == nil)
        #expect(Set(first.threads.map(\.id)).isDisjoint(with: second.threads.map(\.id)))
        #expect(second.threads.first!.latestDate < first.threads.last!.latestDate)
    }

    @Test("AC-U-14: an empty folder gives ThreadPage(threads: [], nextCursor: nil, hasMore: false)")
    func empty() async throws {
        let (repository, folders) = try await seeded(threads: 3)
        let trash = folders.of(.trash)
        let page = try await FetchThreadsUseCase(repository: repository).fetchThreads(accountId: trash.accountId, folderId: trash.id)
        #expect(page == .empty)
    }

    @Test("AC-U-14: category filtering returns only threads of that category")
    func category() async throws {
        let (repository, folders) = try await seeded(threads: 12, categories: [.primary, .social, .promotions])
        let inbox = folders.of(.inbox)
        let page = try await FetchThreadsUseCase(repository: repository).fetchThreads(
            accountId: inbox.accountId, folderId: inbox.id, category: .social)
        #expect(page.threads.count == 4)
        #expect(page.threads.allSatisfy { $0.aiCategory == "social" })
    }

    @Test("AC-U-14: unified threads merge all accounts by latestDate")
    func unified() async throws {
        let repository = MockEmailRepository()
        for (index, name) in ["a", "b"].enumerated() {
            let account = MailFixtures.account(name: name)
            let folders = MailFixtures.standardFolders(accountId: account.id)
            try await repository.saveFolders(folders)
            try await repository.saveEmails((0..<3).map { n in
                MailFixtures.incoming(MailFixtures.email(accountId: account.id, number: n * 2 + index), in: [folders.of(.inbox)])
            })
        }
        let page = try await FetchThreadsUseCase(repository: repository).fetchUnifiedThreads()
        #expect(page.threads.count == 6)
        #expect(page.threads.map(\.accountId) == ["acct-b", "acct-a", "acct-b", "acct-a", "acct-b", "acct-a"])
    }

    @Test("AC-U-14: unread counts per category, nil counting all")
    func unreadCounts() async throws {
        let (repository, folders) = try await seeded(threads: 6, categories: [.primary, .updates, nil])
        let counts = try await FetchThreadsUseCase(repository: repository).fetchUnreadCounts(folderId: folders.of(.inbox).id)
        #expect(counts[nil] == 6)
        #expect(counts[.primary] == 2)
        #expect(counts[.updates] == 2)
        #expect(counts[.uncategorized] == 2)
    }

    @Test("AC-U-14: fetchFolders returns all folders of the account")
    func fetchFolders() async throws {
        let (repository, folders) = try await seeded(threads: 1)
        let fetched = try await FetchThreadsUseCase(repository: repository).fetchFolders(accountId: "acct-work")
        #expect(Set(fetched) == Set(folders))
    }

    @Test("AC-U-14 / E-08: the outbox holds only queued, sending and failed emails")
    func outbox() async throws {
        let (repository, folders) = try await seeded(threads: 0)
        let states: [SendState] = [.none, .draft, .queued, .sending, .failed, .sent]
        try await repository.saveEmails(states.enumerated().map { n, state in
            MailFixtures.incoming(MailFixtures.email(accountId: "acct-work", number: 100 + n, sendState: state), in: [folders.of(.drafts)])
        })
        let outbox = try await FetchThreadsUseCase(repository: repository).fetchOutboxEmails(accountId: "acct-work")
        #expect(outbox.map(\.sendState) == [.queued, .sending, .failed])
    }

    @Test("AC-U-14: repository errors come out as ThreadListError")
    func errorsMapped() async throws {
        let (repository, folders) = try await seeded(threads: 1)
        await repository.failing("getThreads", "getUnreadCounts", "getFolders", "getOutboxEmails", "getThreadsUnified")
        let useCase = FetchThreadsUseCase(repository: repository)
        let inbox = folders.of(.inbox)
        await #expect { try await useCase.fetchThreads(accountId: inbox.accountId, folderId: inbox.id) } throws: { error in
            if case .fetchFailed = error as? ThreadListError { return true } else { return false }
        }
        for call in [
            { _ = try await useCase.fetchUnifiedThreads() },
            { _ = try await useCase.fetchUnreadCounts(folderId: inbox.id) },
            { _ = try await useCase.fetchFolders(accountId: "acct-work") },
            { _ = try await useCase.fetchOutboxEmails(accountId: nil) },
        ] as [() async throws -> Void] {
            await #expect(throws: ThreadListError.self) { try await call() }
        }
    }

    @Test("AC-U-14: a folder of another account, or none, is folderNotFound")
    func folderNotFound() async throws {
        let (repository, folders) = try await seeded(threads: 1)
        let useCase = FetchThreadsUseCase(repository: repository)
        await #expect { try await useCase.fetchThreads(accountId: "someone-else", folderId: folders.of(.inbox).id) } throws: { error in
            if case .folderNotFound = error as? ThreadListError { return true } else { return false }
        }
        await #expect { try await useCase.fetchThreads(accountId: "acct-work", folderId: "nope") } throws: { error in
            if case .folderNotFound(let id) = error as? ThreadListError { return id == "nope" } else { return false }
        }
    }
}

@Suite("ManageThreadActionsUseCase (AC-U-15)")
struct ManageThreadActionsUseCaseTests {
    @Test("AC-U-15: single actions delegate to the repository method of the same name")
    func delegation() async throws {
        let (repository, folders) = try await seeded(threads: 3)
        let useCase = ManageThreadActionsUseCase(repository: repository)
        let ids = try await repository.getThreadsUnified(folderType: .inbox, category: nil, cursor: nil, limit: 25).threads.map(\.id)
        await repository.reset()
        try await useCase.toggleReadStatus(threadId: ids[0])
        try await useCase.toggleStarStatus(threadId: ids[0])
        try await useCase.moveThread(id: ids[0], toFolderId: folders.of(.archive).id)
        try await useCase.archiveThread(id: ids[1])
        try await useCase.deleteThread(id: ids[2])
        #expect(await repository.calls == ["toggleReadStatus", "toggleStarStatus", "moveThread", "archiveThread", "deleteThread"])
        let thread = try #require(try await repository.getThread(id: ids[0]))
        #expect(thread.unreadCount == 0)
        #expect(thread.isStarred)
    }

    @Test("AC-U-15: batch variants delegate to the batch repository methods")
    func batchDelegation() async throws {
        let (repository, folders) = try await seeded(threads: 4)
        let useCase = ManageThreadActionsUseCase(repository: repository)
        let ids = try await repository.getThreadsUnified(folderType: .inbox, category: nil, cursor: nil, limit: 25).threads.map(\.id)
        await repository.reset()
        _ = await useCase.markThreadsRead(ids: ids)
        _ = await useCase.markThreadsUnread(ids: ids)
        _ = await useCase.starThreads(ids: ids)
        _ = await useCase.moveThreads(ids: [ids[0]], toFolderId: folders.of(.archive).id)
        _ = await useCase.archiveThreads(ids: [ids[1]])
        _ = await useCase.deleteThreads(ids: [ids[2]])
        let batchCalls = await repository.calls.filter { $0.hasSuffix("Threads") || $0.hasPrefix("markThreads") }
        #expect(batchCalls == ["markThreadsRead", "markThreadsUnread", "starThreads", "moveThreads", "archiveThreads", "deleteThreads"])
    }

    @Test("AC-U-15 / E-12: a batch where some threads fail reports exactly those, as ThreadListError")
    func batchPartialFailure() async throws {
        let (repository, _) = try await seeded(threads: 10)
        let ids = try await repository.getThreadsUnified(folderType: .inbox, category: nil, cursor: nil, limit: 25).threads.map(\.id)
        let failing = Set(ids.prefix(5))
        await repository.failActions(onThreads: failing)
        let result = await ManageThreadActionsUseCase(repository: repository).archiveThreads(ids: ids)
        #expect(Set(result.failedIds) == failing)
        #expect(result.succeeded.count == 5)
        #expect(result.failed.allSatisfy { $0.error is ThreadListError })
    }

    @Test("AC-U-15: errors propagate as ThreadListError; a missing thread is threadNotFound")
    func errors() async throws {
        let (repository, _) = try await seeded(threads: 1)
        let useCase = ManageThreadActionsUseCase(repository: repository)
        await #expect { try await useCase.archiveThread(id: "gone") } throws: { error in
            if case .threadNotFound(let id) = error as? ThreadListError { return id == "gone" } else { return false }
        }
        await repository.failing("deleteThread")
        let id = try await repository.getThreadsUnified(folderType: .inbox, category: nil, cursor: nil, limit: 1).threads[0].id
        await #expect { try await useCase.deleteThread(id: id) } throws: { error in
            if case .actionFailed = error as? ThreadListError { return true } else { return false }
        }
    }
}

@Suite("MarkReadUseCase (NOTIF-06a)")
struct MarkReadUseCaseTests {
    @Test("NOTIF-06a: markAllRead(in:) marks every unread email of the thread read, and only those")
    func markAllRead() async throws {
        let repository = MockEmailRepository()
        let folders = MailFixtures.standardFolders(accountId: "acct-work")
        try await repository.saveFolders(folders)
        try await repository.saveEmails((0..<3).map { n in
            MailFixtures.incoming(MailFixtures.email(accountId: "acct-work", number: n, threadId: "T-456", isRead: n == 0), in: [folders.of(.inbox)])
        } + [MailFixtures.incoming(MailFixtures.email(accountId: "acct-work", number: 9), in: [folders.of(.inbox)])])
        let thread = try #require(try await repository.getThread(id: "T-456"))
        try await MarkReadUseCase(repository: repository).markAllRead(in: thread)
        #expect(try await repository.getThread(id: "T-456")?.unreadCount == 0)
        #expect(try await repository.getInboxUnreadCount() == 1)
    }

    @Test("E-18: marking a thread that no longer exists is threadNotFound, not a crash")
    func missingThread() async throws {
        let repository = MockEmailRepository()
        let ghost = EmailThread(id: "T-gone", accountId: "a", subject: "s", latestDate: Date())
        await #expect { try await MarkReadUseCase(repository: repository).markAllRead(in: ghost) } throws: { error in
            if case .threadNotFound = error as? ThreadListError { return true } else { return false }
        }
    }
}
