import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    @Suite("IMAPEmailRepository: server-side actions (AC-F-08)")
    struct ServerActionTests {
        /// A fixture with messages synced into the store.
        static func synced(_ ids: [String], capabilities: [String]? = nil) async throws -> SyncFixture {
            let fixture = try await SyncFixture.start(capabilities: capabilities)
            for id in ids { try fixture.deliver(TestMessage.make(id)) }
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            return fixture
        }

        static func thread(of id: String, _ fixture: SyncFixture) async throws -> String {
            try #require(try await fixture.store.getEmail(id: TestMessage.emailId(id))).threadId
        }

        /// Message-IDs in a mailbox, seen by another client.
        static func serverMessageIds(_ mailbox: String, _ fixture: SyncFixture) async throws -> [String] {
            let other = try await fixture.otherClient()
            defer { Task { await other.logout() } }
            _ = try await other.examine(mailbox)
            let messages = try await other.fetchMessages(.all, items: .rawMessage)
            return messages.compactMap { message in
                let text = String(decoding: message.rawMessage ?? Data(), as: UTF8.self)
                return text.split(separator: "\r\n").first { $0.hasPrefix("Message-ID:") }.map { String($0.dropFirst(12)) }
            }.sorted()
        }

        static func serverFlags(_ mailbox: String, _ fixture: SyncFixture) async throws -> [UInt32: Set<IMAPFlag>] {
            let other = try await fixture.otherClient()
            defer { Task { await other.logout() } }
            _ = try await other.examine(mailbox)
            return Dictionary(uniqueKeysWithValues: try await other.fetchFlags().map { ($0.uid, $0.flags) })
        }

        @Test("AC-F-08: markAsRead / unread set and clear \\Seen on the server, then locally")
        func readFlags() async throws {
            let fixture = try await Self.synced(["r-0", "r-1"])
            let repository = fixture.repository
            let thread = try await Self.thread(of: "r-1", fixture)
            try await repository.setThreadRead(id: thread, isRead: true)
            #expect(try await Self.serverFlags("INBOX", fixture)[2]?.contains(.seen) == true)
            #expect(try await Self.serverFlags("INBOX", fixture)[1]?.contains(.seen) == false)
            #expect(try await fixture.store.getThread(id: thread)?.unreadCount == 0)
            try await repository.toggleReadStatus(threadId: thread)
            #expect(try await Self.serverFlags("INBOX", fixture)[2]?.contains(.seen) == false)
            #expect(try await fixture.store.getThread(id: thread)?.unreadCount == 1)
            try await repository.setEmailsRead(ids: [TestMessage.emailId("r-0")], isRead: true)
            #expect(try await Self.serverFlags("INBOX", fixture)[1]?.contains(.seen) == true)
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("r-0"))?.isRead == true)
            // A sync afterwards finds nothing to change: both sides agree.
            let report = try await fixture.sync.syncFolderReport(accountId: "acct-ada", folderId: try await fixture.folder(.inbox).id)
            #expect(report.flagChanges == 0)
        }

        @Test("AC-F-08: starEmail sets and removes \\Flagged on the server, then locally")
        func starFlags() async throws {
            let fixture = try await Self.synced(["s-0"])
            let thread = try await Self.thread(of: "s-0", fixture)
            try await fixture.repository.setThreadStarred(id: thread, isStarred: true)
            #expect(try await Self.serverFlags("INBOX", fixture)[1]?.contains(.flagged) == true)
            #expect(try await fixture.store.getThread(id: thread)?.isStarred == true)
            try await fixture.repository.toggleStarStatus(threadId: thread)
            #expect(try await Self.serverFlags("INBOX", fixture)[1]?.contains(.flagged) == false)
            #expect(try await fixture.store.getThread(id: thread)?.isStarred == false)
        }

        @Test("AC-F-08: archive moves the inbox copy to Archive; the new UID (COPYUID) is recorded", arguments: [true, false])
        func archive(withMove: Bool) async throws {
            let capabilities = withMove ? nil : ["IMAP4rev1", "LITERAL+", "SASL-IR", "ID", "ENABLE", "IDLE", "NAMESPACE", "UIDPLUS", "CONDSTORE", "SPECIAL-USE"]
            let fixture = try await Self.synced(["a-0", "a-1"], capabilities: capabilities)
            let thread = try await Self.thread(of: "a-0", fixture)
            try await fixture.repository.archiveThread(id: thread)
            #expect(try await Self.serverMessageIds("INBOX", fixture) == ["<a-1@example.com>"])
            #expect(try await Self.serverMessageIds("Archive", fixture) == ["<a-0@example.com>"])
            let email = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("a-0")))
            #expect(email.folderTypes == [.archive])
            let archive = try await fixture.folder(.archive)
            #expect(try await fixture.syncStore.uidMap(folderId: archive.id) == [1: email.id])
            // The next sync fetches nothing again and changes nothing.
            let parsed = fixture.parser.count
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").isEmpty)
            #expect(fixture.parser.count == parsed)
            #expect(try await fixture.store.getEmail(id: email.id)?.folderTypes == [.archive])
        }

        @Test("AC-F-08: archive without an Archive folder but with All Mail (Gmail) moves to All Mail, leaving the inbox")
        func archiveGmailStyle() async throws {
            let fixture = try await Self.synced(["g-0"])
            let other = try await fixture.otherClient()
            try await other.createMailbox("All Mail")
            try await fixture.sync.syncFolderList(accountId: "acct-ada")
            let allMail = try await fixture.folder(.allMail)
            // A Gmail-like account: no Archive folder.
            try await fixture.syncStore.deleteFolders(ids: [try await fixture.folder(.archive).id])
            let thread = try await Self.thread(of: "g-0", fixture)
            try await fixture.repository.archiveThread(id: thread)
            #expect(try await Self.serverMessageIds("INBOX", fixture).isEmpty)
            #expect(try await Self.serverMessageIds("All Mail", fixture) == ["<g-0@example.com>"])
            let email = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("g-0")))
            #expect(email.folderTypes == [.allMail])
            #expect(try await fixture.syncStore.uidMap(folderId: allMail.id).values.contains(email.id))
        }

        @Test("AC-F-08: delete moves to Trash; deleting what is only in Trash expunges it for good")
        func delete() async throws {
            let fixture = try await Self.synced(["d-0", "d-1"])
            let thread = try await Self.thread(of: "d-0", fixture)
            try await fixture.repository.deleteThread(id: thread)
            #expect(try await Self.serverMessageIds("INBOX", fixture) == ["<d-1@example.com>"])
            #expect(try await Self.serverMessageIds("Trash", fixture) == ["<d-0@example.com>"])
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("d-0"))?.folderTypes == [.trash])

            try await fixture.repository.deleteThread(id: thread)
            #expect(try await Self.serverMessageIds("Trash", fixture).isEmpty)
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("d-0")) == nil)
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").isEmpty)
            #expect(try fixture.emailCount() == 1)
        }

        /// Issue 34, soak seed 2: a deleted message's Trash copy is linked by COPYUID above Trash's
        /// checkpoint, so it is never fetched; its server flags must still reach the store, whether
        /// they changed before the move (a star done on the server whose local write failed on a
        /// full disk) or after it (another client), before HIGHESTMODSEQ moves past the change.
        @Test("AC-F-08: a flag set on the server before or after a delete reaches the Trash copy in the store",
              arguments: ["before the move", "on the Trash copy"])
        func flagOfDeletedMessageSyncs(when: String) async throws {
            let fixture = try await Self.synced(["t-0"])
            let thread = try await Self.thread(of: "t-0", fixture)
            let other = try await fixture.otherClient()
            defer { Task { await other.logout() } }
            if when == "before the move" {
                _ = try await other.select("INBOX")
                try await other.storeFlags([.flagged], .add, uids: UIDSet([1]))
            }
            try await fixture.repository.deleteThread(id: thread)
            let trash = try await fixture.folder(.trash)
            let uid = try #require(try await fixture.syncStore.uidMap(folderId: trash.id).first { $0.value == TestMessage.emailId("t-0") }?.key)
            if when == "on the Trash copy" {
                _ = try await other.select("Trash")
                try await other.storeFlags([.flagged], .add, uids: UIDSet([uid]))
            }
            #expect(try await Self.serverFlags("Trash", fixture)[uid]?.contains(.flagged) == true)
            for _ in 0..<2 {
                #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").isEmpty)
                #expect(try await fixture.store.getEmail(id: TestMessage.emailId("t-0"))?.isStarred == true)
            }
        }

        @Test("AC-F-08: moveToFolder moves on the server (MOVE, or COPY + \\Deleted + EXPUNGE) and locally")
        func move() async throws {
            let fixture = try await Self.synced(["m-0"])
            let other = try await fixture.otherClient()
            try await other.createMailbox("Projects")
            try await fixture.sync.syncFolderList(accountId: "acct-ada")
            let projects = try #require(try await fixture.folder(path: "Projects"))
            let thread = try await Self.thread(of: "m-0", fixture)
            try await fixture.repository.moveThread(id: thread, toFolderId: projects.id)
            #expect(try await Self.serverMessageIds("INBOX", fixture).isEmpty)
            #expect(try await Self.serverMessageIds("Projects", fixture) == ["<m-0@example.com>"])
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("m-0"))?.folderTypes == [.custom])
        }

        @Test("AC-F-08: a server refusal leaves server and store unchanged and says why (mailbox, server's words)")
        func refusalChangesNothing() async throws {
            let fixture = try await Self.synced(["x-0"])
            let other = try await fixture.otherClient()
            try await other.createMailbox("Gone")
            try await fixture.sync.syncFolderList(accountId: "acct-ada")
            let gone = try #require(try await fixture.folder(path: "Gone"))
            try await other.deleteMailbox("Gone")  // deleted by another client; we do not know yet
            let thread = try await Self.thread(of: "x-0", fixture)
            let before = try await fixture.store.getEmails(threadId: thread)

            let error = try await #require(throws: ServerActionError.self) {
                try await fixture.repository.moveThread(id: thread, toFolderId: gone.id)
            }
            #expect(error.description.contains("Gone"))
            #expect(error.description.contains("127.0.0.1:\(fixture.server.imapPort)"))
            #expect(error.description.contains("[TRYCREATE]") || error.description.lowercased().contains("mailbox doesn't exist"))
            #expect(error.description.contains("Nothing was changed"))
            #expect(try await fixture.store.getEmails(threadId: thread) == before)
            #expect(try await Self.serverMessageIds("INBOX", fixture) == ["<x-0@example.com>"])
        }

        @Test("AC-F-08: a server that is down: the action fails naming it, the store is unchanged")
        func serverDown() async throws {
            let fixture = try await Self.synced(["y-0"])
            let thread = try await Self.thread(of: "y-0", fixture)
            fixture.server.kill()
            let error = try await #require(throws: ServerActionError.self) {
                try await fixture.repository.setThreadRead(id: thread, isRead: true)
            }
            #expect(error.description.contains("127.0.0.1:\(fixture.server.imapPort)"))
            #expect(error.description.contains("Nothing was changed"))
            #expect(try await fixture.store.getThread(id: thread)?.unreadCount == 1)
            try await fixture.server.restart()
            try await fixture.repository.setThreadRead(id: thread, isRead: true)
            #expect(try await fixture.store.getThread(id: thread)?.unreadCount == 0)
        }

        @Test("AC-F-08: a failure after an earlier step undoes that step on the server (flags restored exactly)")
        func undoEarlierSteps() async throws {
            let fixture = try await Self.synced(["z-0"])
            let other = try await fixture.otherClient()
            try await other.createMailbox("Lists")
            _ = try await other.select("INBOX")
            try await other.copy(UIDSet([1]), to: "Lists")  // the same message in two folders
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            // Lists is deleted behind our back: the second step (STORE in Lists) fails.
            try await other.deleteMailbox("Lists")
            let thread = try await Self.thread(of: "z-0", fixture)
            let error = try await #require(throws: ServerActionError.self) {
                try await fixture.repository.setThreadRead(id: thread, isRead: true)
            }
            #expect(!error.serverPartlyChanged)
            #expect(try await Self.serverFlags("INBOX", fixture)[1]?.contains(.seen) == false, "the INBOX step was undone")
            #expect(try await fixture.store.getThread(id: thread)?.unreadCount == 1)
        }
    }
}
