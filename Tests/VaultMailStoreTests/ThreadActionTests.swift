import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

@Suite("Thread actions in the store (AC-U-16)")
struct ThreadActionTests {
    @Test("AC-U-16: archive takes the thread out of the inbox into Archive")
    func archive() async throws {
        let store = try await StoreFixture()
        let emails = try await store.add(0..<2) { $0.threadId = "T" }
        try await store.emails.archiveThread(id: "T")
        #expect(try await store.allThreadIds(folderId: store.folder(.inbox).id).isEmpty)
        #expect(try await store.allThreadIds(folderId: store.folder(.archive).id) == ["T"])
        #expect(try await store.emails.getEmail(id: emails[0].id)?.folderTypes == [.archive])
    }

    @Test("Archive on a Gmail-style account (All Mail, no Archive) only removes the inbox link")
    func archiveGmail() async throws {
        let store = try await StoreFixture()
        let allMail = Folder(accountId: "acct-work", name: "All Mail", path: "[Gmail]/All Mail", folderType: .allMail)
        try await store.emails.saveFolders([allMail])
        try await store.database.dropFolder(type: .archive, accountId: "acct-work")
        let emails = try await store.add([0], in: [.inbox]) { $0.threadId = "T" }
        try await store.emails.archiveThread(id: "T")
        #expect(try await store.emails.getEmail(id: emails[0].id)?.folderTypes == [])
    }

    @Test("Archive with neither Archive nor All Mail says which folder is missing and changes nothing")
    func archiveWithoutFolder() async throws {
        let store = try await StoreFixture()
        try await store.database.dropFolder(type: .archive, accountId: "acct-work")
        try await store.add([0]) { $0.threadId = "T" }
        await #expect(throws: RepositoryError.missingFolder(accountId: "acct-work", type: .archive)) {
            try await store.emails.archiveThread(id: "T")
        }
        #expect(try await store.allThreadIds(folderId: store.folder(.inbox).id) == ["T"])
    }

    @Test("AC-F-08: delete moves to Trash; deleting from Trash removes the mail for good")
    func deleteToTrashThenPurge() async throws {
        let store = try await StoreFixture()
        try await store.add(0..<2, in: [.inbox, .starred]) { $0.threadId = "T" }
        try await store.emails.deleteThread(id: "T")
        #expect(try await store.allThreadIds(folderId: store.folder(.trash).id) == ["T"])
        #expect(try await store.allThreadIds(folderId: store.folder(.inbox).id).isEmpty)
        try await store.emails.deleteThread(id: "T")
        #expect(try await store.emails.getThread(id: "T") == nil)
        #expect(try store.database.rowCounts()["email"] == 0)
        #expect(try store.database.rowCounts()["threadFolder"] == 0)
    }

    @Test("E-18: acting on a thread that does not exist is threadNotFound")
    func missingThread() async throws {
        let store = try await StoreFixture()
        await #expect(throws: RepositoryError.threadNotFound(id: "gone")) { try await store.emails.deleteThread(id: "gone") }
        await #expect(throws: RepositoryError.threadNotFound(id: "gone")) { try await store.emails.toggleReadStatus(threadId: "gone") }
    }

    @Test("AC-U-16: toggleReadStatus flips the thread's unread count")
    func toggleRead() async throws {
        let store = try await StoreFixture()
        try await store.add(0..<3) { $0.threadId = "T" }
        try await store.emails.toggleReadStatus(threadId: "T")
        #expect(try await store.emails.getThread(id: "T")?.unreadCount == 0)
        try await store.emails.toggleReadStatus(threadId: "T")
        #expect(try await store.emails.getThread(id: "T")?.unreadCount == 3)
    }

    @Test("AC-U-16: toggleStarStatus flips isStarred")
    func toggleStar() async throws {
        let store = try await StoreFixture()
        try await store.add(0..<2) { $0.threadId = "T" }
        try await store.emails.toggleStarStatus(threadId: "T")
        #expect(try await store.emails.getThread(id: "T")?.isStarred == true)
        try await store.emails.toggleStarStatus(threadId: "T")
        #expect(try await store.emails.getThread(id: "T")?.isStarred == false)
    }

    @Test("AC-U-16: moveThread rewrites the EmailFolder links")
    func move() async throws {
        let store = try await StoreFixture()
        let projects = Folder(accountId: "acct-work", name: "Projects", path: "Projects", folderType: .custom)
        try await store.emails.saveFolders([projects])
        let emails = try await store.add(0..<2, in: [.inbox, .sent]) { $0.threadId = "T" }
        try await store.emails.moveThread(id: "T", toFolderId: projects.id)
        #expect(try await store.emails.getEmail(id: emails[0].id)?.folderTypes == [.custom, .sent])
        #expect(try await store.allThreadIds(folderId: projects.id) == ["T"])
        #expect(try await store.allThreadIds(folderId: store.folder(.inbox).id).isEmpty)
        await #expect(throws: RepositoryError.folderNotFound(id: "nowhere")) {
            try await store.emails.moveThread(id: "T", toFolderId: "nowhere")
        }
    }

    @Test("E-12: a batch where some threads are gone reports those and applies the rest")
    func batchReportsFailures() async throws {
        let store = try await StoreFixture()
        try await store.add(0..<5)
        let ids = try await store.allThreadIds(folderId: store.folder(.inbox).id)
        let result = await store.emails.markThreadsRead(ids: ids + ["gone-1", "gone-2"])
        #expect(result.succeeded.count == 5)
        #expect(result.failedIds == ["gone-1", "gone-2"])
        #expect(try await store.emails.getInboxUnreadCount() == 0)
        let starred = await store.emails.starThreads(ids: Array(ids.prefix(2)), isStarred: true)
        #expect(starred.allSucceeded)
    }

    @Test("setEmailsRead with an unknown id changes nothing and names the id")
    func setEmailsReadAtomic() async throws {
        let store = try await StoreFixture()
        let emails = try await store.add(0..<2)
        await #expect(throws: RepositoryError.emailNotFound(id: "nope")) {
            try await store.emails.setEmailsRead(ids: [emails[0].id, "nope"], isRead: true)
        }
        #expect(try await store.emails.getInboxUnreadCount() == 2)
    }
}
