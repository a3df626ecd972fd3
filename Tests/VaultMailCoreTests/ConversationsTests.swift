import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Core's `Conversations` service, without any door: what opening a conversation and acting
/// on conversations do, the same for the tool, the web app and the daemon (issue 28).
@Suite("Conversations: opening and acting, the same for every door (issue 28)")
struct ConversationsTests {
    let account = MailFixtures.account(name: "work", email: "me@example.com")

    /// Withdrawals the service asked for, in order.
    final class Withdrawals: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var ids: [String] = []
        func add(_ id: String) { lock.withLock { ids.append(id) } }
        var all: [String] { lock.withLock { ids } }
    }

    /// A thread "T" of three inbox messages: two that arrived in the same second (written in
    /// the opposite order of their ids) and an older read one; plus a read thread "R".
    func stored() async throws -> MockEmailRepository {
        let emails = MockEmailRepository()
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let inbox = try #require(folders.first { $0.folderType == .inbox })
        try await emails.saveFolders(folders)
        let second = MailFixtures.referenceDate.addingTimeInterval(600)
        var a = MailFixtures.email(accountId: account.id, number: 1, threadId: "T", subject: "Plan", date: second)
        a.id = "a-written-later"
        a.dateSent = second.addingTimeInterval(-10)
        var b = MailFixtures.email(accountId: account.id, number: 2, threadId: "T", subject: "Re: Plan", date: second)
        b.id = "b-written-first"
        b.dateSent = second.addingTimeInterval(-50)
        var c = MailFixtures.email(accountId: account.id, number: 3, threadId: "T", subject: "Plan", date: MailFixtures.referenceDate, isRead: true)
        c.id = "c-oldest"
        let read = MailFixtures.email(accountId: account.id, number: 4, threadId: "R", isRead: true)
        _ = try await emails.saveEmails([a, b, c, read].map { MailFixtures.incoming($0, in: [inbox]) })
        return emails
    }

    func service(_ emails: MockEmailRepository, markReadOnOpen: Bool = true, withdrawals: Withdrawals) -> Conversations {
        Conversations(emails: emails, markReadOnOpen: { markReadOnOpen }, withdrawNotifications: { withdrawals.add($0) })
    }

    @Test("E-06: a long conversation opens on its newest messages, oldest of them first, saying how many are left out; opening marks all of it read")
    func openNewestPage() async throws {
        let emails = MockEmailRepository()
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let inbox = try #require(folders.first { $0.folderType == .inbox })
        try await emails.saveFolders(folders)
        // 120 messages a minute apart, stored newest first; the oldest one unread.
        let long = (1...120).reversed().map { n in
            MailFixtures.email(accountId: account.id, number: n, threadId: "L", date: MailFixtures.referenceDate.addingTimeInterval(Double(n) * 60), isRead: n > 1)
        }
        _ = try await emails.saveEmails(long.map { MailFixtures.incoming($0, in: [inbox]) })
        let withdrawals = Withdrawals()
        let conversations = service(emails, withdrawals: withdrawals)

        let page = try await conversations.open("L", newest: 30)
        #expect(page.messages.map(\.messageId) == (91...120).map { "<msg-\($0)@example.com>" })
        #expect(page.olderCount == 90)
        let marking = try #require(page.markingRead, "the unread message left out is still marked read")
        #expect(await marking.value == nil)
        #expect(try await emails.getEmails(threadId: "L").allSatisfy(\.isRead))

        let more = try await conversations.conversation("L", newest: 200)
        #expect(more.messages.count == 120 && more.olderCount == 0)
        #expect(try await conversations.conversation("L").messages.count == 120, "the tool reads it whole")
    }

    @Test("Opening: oldest first, same-second mail by when it was written; its notification withdrawn; marked read, shown as it was")
    func open() async throws {
        let emails = try await stored()
        let withdrawals = Withdrawals()
        let conversation = try await service(emails, withdrawals: withdrawals).open("T")
        #expect(conversation.messages.map(\.id) == ["c-oldest", "b-written-first", "a-written-later"])
        #expect(conversation.messages.map(\.isRead) == [true, false, false], "shown as it was before opening")
        #expect(withdrawals.all.first == "T", "withdrawn at once, before the server answers")
        let marking = try #require(conversation.markingRead, "unread mail is marked read")
        #expect(await marking.value == nil)
        #expect(try await emails.getEmails(threadId: "T").allSatisfy(\.isRead))
        #expect(await emails.calls.contains("setEmailsRead"))
        #expect(withdrawals.all == ["T", "T"], "and again once read: mail that arrived meanwhile")
    }

    @Test("Mark-read-on-open off: opening withdraws the notification and leaves the mail unread")
    func openWithoutMarking() async throws {
        let emails = try await stored()
        let withdrawals = Withdrawals()
        let conversation = try await service(emails, markReadOnOpen: false, withdrawals: withdrawals).open("T")
        #expect(conversation.markingRead == nil)
        #expect(withdrawals.all == ["T"])
        #expect(try await emails.getEmails(threadId: "T").filter { !$0.isRead }.count == 2)
        #expect(await !emails.calls.contains("setEmailsRead"))
    }

    @Test("A read conversation is not marked again; the server is not asked")
    func openRead() async throws {
        let emails = try await stored()
        let conversation = try await service(emails, withdrawals: Withdrawals()).open("R")
        #expect(conversation.markingRead == nil)
        #expect(await !emails.calls.contains("setEmailsRead"))
    }

    @Test("Marking read fails on the server: the failure is the task's value and the mail stays unread")
    func markingFails() async throws {
        let emails = try await stored()
        await emails.failing("setEmailsRead")
        let withdrawals = Withdrawals()
        let conversation = try await service(emails, withdrawals: withdrawals).open("T")
        let problem = try #require(await conversation.markingRead?.value)
        #expect("\(problem)".contains("injected failure"), "\(problem)")
        #expect(try await emails.getEmails(threadId: "T").filter { !$0.isRead }.count == 2)
        #expect(withdrawals.all == ["T"])
    }

    @Test("A conversation that is gone: threadNotFound, nothing withdrawn; looking without opening changes nothing")
    func missingAndLooking() async throws {
        let emails = try await stored()
        let withdrawals = Withdrawals()
        let service = service(emails, withdrawals: withdrawals)
        await #expect { try await service.open("gone") } throws: { error in
            if case ThreadListError.threadNotFound(let id) = error { return id == "gone" }
            return false
        }
        let looked = try await service.conversation("T")
        #expect(looked.messages.map(\.id) == ["c-oldest", "b-written-first", "a-written-later"])
        #expect(looked.markingRead == nil && withdrawals.all.isEmpty)
        #expect(try await emails.getEmails(threadId: "T").filter { !$0.isRead }.count == 2)
    }

    @Test("AC-N-11: read, archive, delete and move withdraw the notifications of those that succeeded; unread and star do not",
          arguments: [ConversationAction.read, .archive, .delete, .unread, .star, .unstar])
    func actions(action: ConversationAction) async throws {
        let emails = try await stored()
        await emails.failActions(onThreads: ["R"])
        let withdrawals = Withdrawals()
        let result = await service(emails, withdrawals: withdrawals).perform(action, on: ["T", "R"])
        #expect(result.succeeded == ["T"] && result.failedIds == ["R"])
        #expect(withdrawals.all == (action.withdrawsNotification ? ["T"] : []))
        if action == .read { #expect(try await emails.getEmails(threadId: "T").allSatisfy(\.isRead)) }
        if action == .archive { #expect(try await emails.getEmails(threadId: "T").allSatisfy { !$0.folderTypes.contains(.inbox) }) }
    }

    /// SQLite's SQLITE_FULL as the store's adapter conforms it.
    struct FullDisk: StorageFailure, CustomStringConvertible {
        var isDiskFull: Bool { true }
        var description: String { "SQLite error 13: database or disk is full" }
    }

    @Test("Issue 34: an action the server did is done: a full disk here is a note in its words (never 'nothing was changed'), a conversation a sync already removed says nothing",
          arguments: [true, false])
    func doneOnServer(diskFull: Bool) async throws {
        let emails = try await stored()
        let underlying: any Error = diskFull ? FullDisk() : RepositoryError.threadNotFound(id: "R")
        await emails.failing(error: DoneOnServer(action: "archive thread R", underlying: underlying))
        await emails.failActions(onThreads: ["R"])
        let withdrawals = Withdrawals()
        let result = await service(emails, withdrawals: withdrawals).perform(.archive, on: ["T", "R"])
        #expect(result.failed.isEmpty && Set(result.succeeded) == ["T", "R"])
        #expect(Set(withdrawals.all) == ["T", "R"], "done: its notification goes")
        if diskFull {
            #expect(result.notUpdatedHere.map(\.id) == ["R"])
            let problem = PlainProblem(try #require(result.notUpdatedHere.first).error)
            #expect(problem.words == "Done on the server, but this computer's copy couldn't be updated because its disk is full. "
                + "Free some space on it; the next sync then brings it up to date.")
            #expect(problem.detail?.contains("database or disk is full") == true)
            #expect(!"\(ThreadListError.actionFailed(underlying: DoneOnServer(action: "archive thread R", underlying: underlying)))".contains("nothing was changed"))
        } else {
            #expect(result.notUpdatedHere.isEmpty)
        }
    }

    @Test("Move goes to the folder named and withdraws the notification")
    func move() async throws {
        let emails = try await stored()
        let archive = try #require(MailFixtures.standardFolders(accountId: account.id).first { $0.folderType == .archive })
        let withdrawals = Withdrawals()
        let result = await service(emails, withdrawals: withdrawals).perform(.move(toFolderId: archive.id), on: ["T"])
        #expect(result.allSucceeded && withdrawals.all == ["T"])
        #expect(try await emails.getEmails(threadId: "T").allSatisfy { $0.folderTypes == [.archive] })
    }

    @Test("Issue 29, Mark all as read: exactly the list's unread conversations (its folder, its tab, none newer than the list showed) are marked read as one is, notifications withdrawn")
    func markAllRead() async throws {
        let emails = try await stored()  // T (unread, 2 of 3), R (read), both in the inbox
        let folders = MailFixtures.standardFolders(accountId: account.id)
        let inbox = try #require(folders.first { $0.folderType == .inbox })
        let archive = try #require(folders.first { $0.folderType == .archive })
        let late = MailFixtures.referenceDate.addingTimeInterval(3_600)
        _ = try await emails.saveEmails([
            MailFixtures.incoming(MailFixtures.email(accountId: account.id, number: 5, threadId: "P", category: .promotions), in: [inbox]),
            MailFixtures.incoming(MailFixtures.email(accountId: account.id, number: 6, threadId: "A"), in: [archive]),
            MailFixtures.incoming(MailFixtures.email(accountId: account.id, number: 7, threadId: "N", date: late), in: [inbox]),
        ])
        let withdrawals = Withdrawals()
        let service = service(emails, withdrawals: withdrawals)
        let unread = { (id: String) in try await emails.getEmails(threadId: id).contains { !$0.isRead } }

        // The Promotions tab: P alone.
        let promotions = try await service.markAllRead(in: .folder(id: inbox.id, category: .promotions))
        #expect(promotions.succeeded == ["P"] && withdrawals.all == ["P"])
        #expect(try await unread("T"))
        #expect(try await unread("N"))
        // The inbox as it was drawn before N arrived: T, not N; the archive's A never.
        let inboxResult = try await service.markAllRead(in: .folder(id: inbox.id), upTo: late.addingTimeInterval(-1))
        #expect(inboxResult.succeeded == ["T"] && withdrawals.all == ["P", "T"])
        #expect(try await !unread("T"))
        #expect(try await unread("N"), "newer than the list showed, and marked read")
        #expect(try await unread("A"))
        #expect(await emails.calls.filter { $0 == "setThreadRead" }.count == 2, "marked as one conversation is: P, then T")
        // Every inbox, unbounded: N. Nothing left: nothing asked.
        #expect(try await service.markAllRead(in: .unified(.inbox)).succeeded == ["N"])
        #expect(try await service.markAllRead(in: .unified(.inbox)).succeeded.isEmpty)
        #expect(try await unread("A"), "another folder's conversation was touched")
        await #expect(throws: ThreadListError.self) { try await service.markAllRead(in: .folder(id: "nowhere")) }
    }
}
