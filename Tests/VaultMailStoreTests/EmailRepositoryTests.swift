import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting

@Suite("GRDBEmailRepository (AC-U-16)")
struct EmailRepositoryTests {
    @Test("AC-U-16: getThreads resolves Folder → EmailFolder → Email → Thread")
    func threeStepJoin() async throws {
        let store = try await StoreFixture()
        try await store.add(0..<3, in: [.inbox])
        try await store.add(10..<12, in: [.sent])
        let inbox = try await store.emails.getThreads(folderId: store.folder(.inbox).id, category: nil, cursor: nil, limit: 25)
        let sent = try await store.emails.getThreads(folderId: store.folder(.sent).id, category: nil, cursor: nil, limit: 25)
        #expect(inbox.threads.count == 3)
        #expect(sent.threads.count == 2)
        #expect(Set(inbox.threads.map(\.id)).isDisjoint(with: sent.threads.map(\.id)))
    }

    @Test("AC-U-16: first 25 by latestDate DESC, then the rest via the cursor; hasMore right on both")
    func pagination() async throws {
        let store = try await StoreFixture()
        try await store.add(0..<60)
        let inboxId = store.folder(.inbox).id
        let first = try await store.emails.getThreads(folderId: inboxId, category: nil, cursor: nil, limit: 25)
        #expect(first.threads.count == 25)
        #expect(first.hasMore)
        #expect(first.threads.first?.subject == "Message 59")
        #expect(first.threads.map(\.latestDate) == first.threads.map(\.latestDate).sorted(by: >))
        let all = try await store.allThreadIds(folderId: inboxId)
        #expect(all.count == 60)
        #expect(Set(all).count == 60)
        let last = try await store.emails.getThreads(
            folderId: inboxId, category: nil,
            cursor: ThreadCursor(date: MailFixtures.referenceDate.addingTimeInterval(5 * 60), threadId: "thread-acct-work-5"), limit: 25)
        #expect(last.threads.count == 5)
        #expect(!last.hasMore)
        #expect(last.nextCursor == nil)
    }

    @Test("Pagination with ties on latestDate loses and repeats no thread", arguments: [1, 7, 25])
    func paginationTies(pageSize: Int) async throws {
        let store = try await StoreFixture()
        let sameMoment = MailFixtures.referenceDate
        try await store.add(0..<40) { email in
            email.dateReceived = sameMoment.addingTimeInterval(email.messageId.contains("-1") ? 60 : 0)
        }
        let ids = try await store.allThreadIds(folderId: store.folder(.inbox).id, pageSize: pageSize)
        #expect(ids.count == 40)
        #expect(Set(ids).count == 40)
    }

    @Test("E-10: a folder with no mail gives an empty page")
    func emptyFolder() async throws {
        let store = try await StoreFixture()
        try await store.add(0..<5)
        let page = try await store.emails.getThreads(folderId: store.folder(.archive).id, category: nil, cursor: nil, limit: 25)
        #expect(page == .empty)
    }

    @Test("An unknown folder id is folderNotFound")
    func unknownFolder() async throws {
        let store = try await StoreFixture()
        await #expect(throws: RepositoryError.folderNotFound(id: "nope")) {
            try await store.emails.getThreads(folderId: "nope", category: nil, cursor: nil, limit: 25)
        }
    }

    @Test("AC-U-16: the category filter excludes threads of other categories")
    func categoryFilter() async throws {
        let store = try await StoreFixture()
        let categories: [AICategory?] = [.primary, .promotions, nil]
        try await store.add(0..<9) { email in
            let n = Int(email.subject.split(separator: " ").last!)!
            email.aiCategory = categories[n % 3]?.rawValue
        }
        let page = try await store.emails.getThreads(folderId: store.folder(.inbox).id, category: .promotions, cursor: nil, limit: 25)
        #expect(page.threads.count == 3)
        #expect(page.threads.allSatisfy { $0.category == .promotions })
    }

    @Test("AC-U-16 / E-06: unified threads come from every account, merged by date, no duplicates")
    func unified() async throws {
        let store = try await StoreFixture(accounts: ["a", "b", "c"])
        for (offset, account) in ["acct-a", "acct-b", "acct-c"].enumerated() {
            try await store.add(stride(from: offset, to: 30, by: 3), account: account, in: [.inbox, .starred])
        }
        try await store.add(100..<105, account: "acct-a", in: [.sent])
        let page = try await store.emails.getThreadsUnified(folderType: .inbox, category: nil, cursor: nil, limit: 25)
        #expect(page.threads.count == 25)
        #expect(Set(page.threads.map(\.accountId)) == ["acct-a", "acct-b", "acct-c"])
        #expect(page.threads.map(\.latestDate) == page.threads.map(\.latestDate).sorted(by: >))
        let rest = try await store.emails.getThreadsUnified(folderType: .inbox, category: nil, cursor: page.nextCursor, limit: 25)
        #expect(rest.threads.count == 5)
        #expect(Set(page.threads.map(\.id) + rest.threads.map(\.id)).count == 30)
    }

    @Test("AC-U-16: a unified page is full even when its threads sit in several folders of the type")
    func unifiedAcrossSameTypeFolders() async throws {
        let store = try await StoreFixture()
        let projects = [Folder(accountId: "acct-work", name: "Alpha", path: "Projects/Alpha", folderType: .custom),
                        Folder(accountId: "acct-work", name: "Beta", path: "Projects/Beta", folderType: .custom)]
        try await store.emails.saveFolders(projects)
        _ = try await store.emails.saveEmails((0..<6).map { MailFixtures.incoming(MailFixtures.email(accountId: "acct-work", number: $0), in: projects) })
        let page = try await store.emails.getThreadsUnified(folderType: .custom, category: nil, cursor: nil, limit: 4)
        #expect(page.threads.count == 4 && page.hasMore, "four distinct threads, and more to come")
        let rest = try await store.emails.getThreadsUnified(folderType: .custom, category: nil, cursor: page.nextCursor, limit: 4)
        #expect(Set(page.threads.map(\.id) + rest.threads.map(\.id)).count == 6)
    }

    @Test("AC-U-16: the outbox is exactly the queued, sending and failed emails")
    func outbox() async throws {
        let store = try await StoreFixture()
        let states = SendState.allCases
        for (n, state) in states.enumerated() {
            try await store.add([200 + n], in: [.drafts]) { $0.sendState = state }
        }
        let outbox = try await store.emails.getOutboxEmails(accountId: "acct-work")
        #expect(Set(outbox.map(\.sendState)) == [.queued, .sending, .failed])
        #expect(try await store.emails.getOutboxEmails(accountId: nil).count == 3)
        #expect(try await store.emails.getOutboxEmails(accountId: "other").isEmpty)
    }

    @Test("AC-U-16: unread counts per category count unread threads")
    func unreadCounts() async throws {
        let store = try await StoreFixture()
        try await store.add(0..<6) { email in
            let n = Int(email.subject.split(separator: " ").last!)!
            email.aiCategory = n < 4 ? AICategory.social.rawValue : nil
            email.isRead = n % 2 == 1
        }
        let counts = try await store.emails.getUnreadCounts(folderId: store.folder(.inbox).id)
        #expect(counts[nil] == 3)
        #expect(counts[.social] == 2)
        #expect(counts[.uncategorized] == 1)
        #expect(try await store.emails.getUnreadCountsUnified(folderType: .inbox) == counts)
    }

    @Test("Issue 29, Mark all as read: a list's unread thread ids are what its counts count — that folder (or type), that category, none newer than the bound — newest first")
    func unreadThreadIdsOfAList() async throws {
        let store = try await StoreFixture(accounts: ["work", "home"])
        // Inbox of work: 0…5, odd ones read; 0 and 1 promotions, the rest primary.
        try await store.add(0..<6) { email in
            let n = Int(email.subject.split(separator: " ").last!)!
            email.isRead = n % 2 == 1
            email.aiCategory = (n < 2 ? AICategory.promotions : .primary).rawValue
        }
        try await store.add(10..<12, in: [.archive])
        try await store.add(20..<22, account: "acct-home")
        // One conversation in the inbox and in Lists (a custom folder would do; starred is another folder).
        try await store.add([30], in: [.inbox, .starred]) { $0.aiCategory = AICategory.primary.rawValue }
        let inbox = store.folder(.inbox).id
        let ids = { (list: ConversationList, upTo: Date?) in try await store.emails.unreadThreadIds(in: list, upTo: upTo) }

        #expect(try await ids(.folder(id: inbox), nil) == ["thread-acct-work-30", "thread-acct-work-4", "thread-acct-work-2", "thread-acct-work-0"])
        #expect(try await ids(.folder(id: inbox), nil).count == (try await store.emails.getUnreadCounts(folderId: inbox))[nil])
        #expect(try await ids(.folder(id: inbox, category: .promotions), nil) == ["thread-acct-work-0"])
        #expect(try await ids(.folder(id: inbox, category: .primary), nil) == ["thread-acct-work-30", "thread-acct-work-4", "thread-acct-work-2"])
        // Bounded by the newest row the list showed: message 4's time leaves 30 (newer) out, keeps 4.
        let four = MailFixtures.referenceDate.addingTimeInterval(4 * 60)
        #expect(try await ids(.folder(id: inbox), four) == ["thread-acct-work-4", "thread-acct-work-2", "thread-acct-work-0"])
        // Every inbox, each conversation once; the archive and another folder's mail never.
        #expect(try await ids(.unified(.inbox), nil) == ["thread-acct-work-30", "thread-acct-home-21", "thread-acct-home-20",
                                                         "thread-acct-work-4", "thread-acct-work-2", "thread-acct-work-0"])
        #expect(try await ids(.folder(id: store.folder(.archive).id), nil) == ["thread-acct-work-11", "thread-acct-work-10"])
        #expect(try await ids(.unified(.starred), nil) == ["thread-acct-work-30"])
        // Read ones leave the list; an unknown folder says so.
        try await store.emails.setThreadRead(id: "thread-acct-work-4", isRead: true)
        #expect(try await ids(.folder(id: inbox, category: .primary), nil) == ["thread-acct-work-30", "thread-acct-work-2"])
        await #expect(throws: RepositoryError.folderNotFound(id: "nope")) { try await ids(.folder(id: "nope"), nil) }
    }

    @Test("NOTIF-16 / AC-N-09: the badge counts unread inbox emails per email: 50, not 70")
    func inboxUnreadCount() async throws {
        let store = try await StoreFixture()
        // 50 unread inbox emails in 10 threads of 5 (per email, not per thread).
        for n in 0..<50 {
            try await store.add([n]) { $0.threadId = "T\(n / 5)" }
        }
        try await store.add(100..<110, in: [.archive])
        try await store.add(110..<120, in: [.spam])
        try await store.add(120..<130, in: [.inbox]) { $0.isRead = true }
        try await store.add(130..<135, in: [.inbox, .starred])
        #expect(try await store.emails.getInboxUnreadCount() == 55)
        let thread = try #require(try await store.emails.getThread(id: "T0"))
        try await store.emails.setThreadRead(id: thread.id, isRead: true)
        #expect(try await store.emails.getInboxUnreadCount() == 50)
        try await store.emails.archiveThread(id: "T1")
        #expect(try await store.emails.getInboxUnreadCount() == 45)
    }

    @Test("Inactive accounts do not count toward the badge")
    func inactiveAccountBadge() async throws {
        let store = try await StoreFixture(accounts: ["a", "b"])
        try await store.add(0..<4, account: "acct-a")
        try await store.add(10..<13, account: "acct-b")
        var b = try #require(try await store.accounts.getAccount(id: "acct-b"))
        b.isActive = false
        try await store.accounts.updateAccount(b)
        #expect(try await store.emails.getInboxUnreadCount() == 4)
    }

    @Test("The same message in two folders is one email with two links")
    func sameMessageTwoFolders() async throws {
        let store = try await StoreFixture()
        let first = try await store.add([1], in: [.inbox])
        let second = try await store.add([1], in: [.starred])
        #expect(first.count == 1)
        #expect(second.isEmpty)
        let email = try #require(try await store.emails.getEmail(id: first[0].id))
        #expect(email.folderTypes == [.inbox, .starred])
        #expect(try store.database.rowCounts()["emailFolder"] == 2)
        #expect(try store.database.rowCounts()["email"] == 1)
    }

    @Test("saveEmails returns only emails new to the store, with their folder types")
    func saveReturnsNew() async throws {
        let store = try await StoreFixture()
        let first = try await store.add(0..<3)
        let second = try await store.add(1..<5)
        #expect(first.count == 3)
        #expect(second.map(\.subject) == ["Message 3", "Message 4"])
        #expect(second.allSatisfy { $0.folderTypes == [.inbox] })
    }

    @Test("Thread aggregates follow their emails: count, unread, star, participants, snippet, latest date")
    func aggregates() async throws {
        let store = try await StoreFixture()
        try await store.add(0..<3) { email in
            email.threadId = "T"
            let n = Int(email.subject.split(separator: " ").last!)!
            email.fromAddress = "p\(n % 2)@x.org"
            email.fromName = "Person \(n % 2)"
        }
        var thread = try #require(try await store.emails.getThread(id: "T"))
        #expect(thread.messageCount == 3)
        #expect(thread.unreadCount == 3)
        #expect(thread.subject == "Message 0")
        #expect(thread.snippet == "Preview of message 2")
        #expect(thread.participantList.map(\.email) == ["p0@x.org", "p1@x.org"])
        #expect(thread.latestDate == MailFixtures.referenceDate.addingTimeInterval(120))
        try await store.emails.toggleStarStatus(threadId: "T")
        try await store.emails.toggleReadStatus(threadId: "T")
        thread = try #require(try await store.emails.getThread(id: "T"))
        #expect(thread.isStarred)
        #expect(thread.unreadCount == 0)
        let emails = try await store.emails.getEmails(threadId: "T")
        #expect(emails.map(\.isStarred) == [false, false, true])
    }

    @Test("Issue 29: two messages of the same second keep the order they were stored in (the sync's, by UID), not their ids': the thread's latest, its snippet, a star")
    func sameSecondOrder() async throws {
        let store = try await StoreFixture()
        let ids = [1, 2].map { MailFixtures.email(accountId: "acct-work", number: $0).id }
        let order = ids[0] > ids[1] ? [1, 2] : [2, 1]  // the one whose id sorts last is stored first
        for n in order {
            try await store.add([n]) { email in
                email.threadId = "T"
                email.dateReceived = MailFixtures.referenceDate
            }
        }
        let emails = try await store.emails.getEmails(threadId: "T")
        #expect(emails.map(\.subject) == order.map { "Message \($0)" })
        let thread = try #require(try await store.emails.getThread(id: "T"))
        #expect(thread.snippet == "Preview of message \(order[1])", "the thread's latest is the one stored last")
        try await store.emails.toggleStarStatus(threadId: "T")
        #expect(try await store.emails.getEmails(threadId: "T").map(\.isStarred) == [false, true])
    }

    @Test("E-06: a thread's newest page is the tail of getEmails(threadId:), in its order (same-second mail as stored), with how many older ones are left out")
    func newestPage() async throws {
        let store = try await StoreFixture()
        // 8 messages; 5 and 6 arrive in the same second, 6 stored first.
        for n in [0, 1, 2, 3, 4, 6, 5, 7] {
            try await store.add([n]) { email in
                email.threadId = "T"
                email.dateReceived = MailFixtures.referenceDate.addingTimeInterval(Double(min(n, 5)) * 60 + (n == 7 ? 600 : 0))
            }
        }
        let all = try await store.emails.getEmails(threadId: "T").map(\.id)
        for limit in [1, 3, 8, 20] {
            let page = try await store.emails.getEmails(threadId: "T", newest: limit)
            #expect(page.emails.map(\.id) == Array(all.suffix(limit)), "newest \(limit)")
            #expect(page.older == max(0, 8 - limit))
        }
        #expect(try await store.emails.getEmails(threadId: "none", newest: 5).emails.isEmpty)
    }
}
