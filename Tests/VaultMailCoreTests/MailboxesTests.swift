import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Core's `Mailboxes` service, without any door: the folders, lists, counts, outbox and
/// header data the tool and the web app both show, read one way (issue 28).
@Suite("Mailboxes: folders, lists, counts and header data, read once for every door (issue 28)")
struct MailboxesTests {
    let work = MailFixtures.account(name: "work", email: "me@example.com")
    let home = MailFixtures.account(name: "home", email: "me@home.example")

    /// Two accounts' standard folders; work's inbox holds an unread and a read conversation
    /// (the unread one with an attachment), home's inbox one unread; one message of work's
    /// waits in the outbox.
    func stored() async throws -> (Mailboxes, MockEmailRepository, [Email]) {
        let emails = MockEmailRepository()
        let workFolders = MailFixtures.standardFolders(accountId: work.id)
        let homeFolders = MailFixtures.standardFolders(accountId: home.id)
        try await emails.saveFolders(workFolders + homeFolders)
        let workInbox = try #require(workFolders.first { $0.folderType == .inbox })
        let homeInbox = try #require(homeFolders.first { $0.folderType == .inbox })
        let unread = MailFixtures.email(accountId: work.id, number: 1, threadId: "a1", subject: "Invoice")
        let read = MailFixtures.email(accountId: work.id, number: 2, threadId: "a2", subject: "Lunch", isRead: true)
        let other = MailFixtures.email(accountId: home.id, number: 3, threadId: "b1", subject: "Garden")
        let queued = MailFixtures.email(accountId: work.id, number: 4, threadId: "c1", subject: "Going out", isRead: true, sendState: .queued)
        let attachment = Attachment(emailId: unread.id, filename: "invoice.pdf", mimeType: "application/pdf", sizeBytes: 1200)
        let saved = try await emails.saveEmails([
            IncomingEmail(email: unread, links: MailFixtures.incoming(unread, in: [workInbox]).links, attachments: [attachment]),
            MailFixtures.incoming(read, in: [workInbox]),
            MailFixtures.incoming(other, in: [homeInbox]),
            MailFixtures.incoming(queued, in: []),
        ])
        return (Mailboxes(emails: emails), emails, saved)
    }

    @Test("AC-U-14: a folder's list is its account's; another account's folder is refused, not read")
    func folderLists() async throws {
        let (mailboxes, _, _) = try await stored()
        let folders = try await mailboxes.folders(accountId: work.id)
        let inbox = try #require(folders.first { $0.folderType == .inbox })
        #expect(Set(folders.map(\.accountId)) == [work.id])
        #expect(try await mailboxes.folder(id: inbox.id) == inbox)
        #expect(try await mailboxes.folder(id: "gone") == nil)
        #expect(try await mailboxes.threads(accountId: work.id, folderId: inbox.id).threads.map(\.id) == ["a2", "a1"])
        await #expect(throws: ThreadListError.self) { try await mailboxes.threads(accountId: home.id, folderId: inbox.id) }
        let one = try await mailboxes.threads(accountId: work.id, folderId: inbox.id, limit: 1)
        #expect(one.threads.map(\.id) == ["a2"])
        let next = try #require(one.nextCursor)
        #expect(try await mailboxes.threads(accountId: work.id, folderId: inbox.id, cursor: next, limit: 1).threads.map(\.id) == ["a1"])
    }

    @Test("The unified list merges every account's folders of a type; counts per folder, per type and the badge agree")
    func unifiedAndCounts() async throws {
        let (mailboxes, _, _) = try await stored()
        #expect(try await mailboxes.threads(ofType: .inbox).threads.map(\.id) == ["b1", "a2", "a1"])
        #expect(try await mailboxes.threads(ofType: .sent).threads.isEmpty)
        let inbox = try #require(try await mailboxes.folders(accountId: work.id).first { $0.folderType == .inbox })
        #expect(try await mailboxes.unreadCounts(folderId: inbox.id)[nil] == 1)
        #expect(try await mailboxes.unreadCounts(ofType: .inbox)[nil] == 2)
        #expect(try await mailboxes.inboxUnreadCount() == 2)
    }

    @Test("The outbox, one conversation's header, one message and its attachments")
    func lookups() async throws {
        let (mailboxes, _, saved) = try await stored()
        #expect(try await mailboxes.outbox(accountId: nil).map(\.subject) == ["Going out"])
        #expect(try await mailboxes.outbox(accountId: home.id).isEmpty)
        #expect(try await mailboxes.thread(id: "a1")?.subject == "Invoice")
        #expect(try await mailboxes.thread(id: "zz") == nil)
        let unread = saved[0]
        #expect(try await mailboxes.email(id: unread.id)?.subject == "Invoice")
        #expect(try await mailboxes.attachments(emailId: unread.id).map(\.filename) == ["invoice.pdf"])
        #expect(try await mailboxes.attachments(emailId: saved[1].id).isEmpty)
    }

    @Test("An id typed short: a unique prefix names one, a shared prefix two, any case")
    func prefixes() async throws {
        let (mailboxes, _, saved) = try await stored()
        #expect(try await mailboxes.threadIds(withPrefix: "B") == ["b1"])
        #expect(try await mailboxes.threadIds(withPrefix: "a").count == 2)
        #expect(try await mailboxes.threadIds(withPrefix: "d").isEmpty)
        let id = saved[2].id
        #expect(try await mailboxes.emailIds(withPrefix: id.uppercased()) == [id])
    }

    @Test("AC-U-13: a store that fails comes out as ThreadListError, with the cause")
    func failures() async throws {
        let (mailboxes, emails, _) = try await stored()
        await emails.failing("getThread", "getInboxUnreadCount")
        await #expect { try await mailboxes.thread(id: "a1") } throws: { error in
            guard case .fetchFailed(let underlying) = error as? ThreadListError else { return false }
            return "\(underlying)".contains("injected failure")
        }
        await #expect(throws: ThreadListError.self) { try await mailboxes.inboxUnreadCount() }
    }
}
