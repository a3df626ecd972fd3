import Foundation
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    @Suite("SyncEmailsUseCase")
    struct SyncEngineTests {
        @Test("AC-F-06: initial sync fetches the window's mail (headers, bodies), not older mail; state and counts persisted")
        func initialSync() async throws {
            let fixture = try await SyncFixture.start()
            let other = try await fixture.otherClient()
            let now = Date()
            _ = try await other.append(TestMessage.make("old-1"), to: "INBOX", internalDate: now.addingTimeInterval(-60 * 86_400))
            _ = try await other.append(TestMessage.make("old-2"), to: "INBOX", flags: [.seen], internalDate: now.addingTimeInterval(-45 * 86_400))
            try fixture.deliver(TestMessage.make("new-1", body: "First body line."))
            try fixture.deliver(TestMessage.make("new-2", extraHeaders: ["X-Spam-Flag: YES"]))
            _ = try await other.append(TestMessage.make("new-3"), to: "INBOX", flags: [.seen, .flagged])
            // Malformed: a multipart whose boundary never appears, and no Message-ID.
            try fixture.deliver(Data("From: broken@example.com\r\nSubject: Broken\r\nContent-Type: multipart/mixed; boundary=\"nowhere\"\r\n\r\ngarbage text\r\n".utf8))

            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")

            #expect(Set(new.map(\.subject)) == ["Message new-1", "Message new-2", "Message new-3", "Broken"])
            #expect(new.allSatisfy { $0.folderTypes == [.inbox] })
            #expect(fixture.parser.count == 4, "only the window's messages are fetched")
            let first = try #require(new.first { $0.subject == "Message new-1" })
            #expect(first.bodyPlain?.contains("First body line.") == true)
            #expect(first.fromAddress == "grace@example.com")
            #expect(first.fromName == "Grace")
            #expect(first.toAddresses == [Participant(name: "Ada", email: "ada@example.com")])
            #expect(new.first { $0.subject == "Message new-2" }?.spamFlagged == true)
            let flagged = try #require(new.first { $0.subject == "Message new-3" })
            #expect(flagged.isRead && flagged.isStarred)
            let broken = try #require(new.first { $0.subject == "Broken" })
            #expect(broken.messageId.hasSuffix("@synthesized.vaultmail>"))
            #expect(try fixture.database.rowCounts()["emailSource"] == 4, "the raw source of every message is kept")

            let inbox = try await fixture.folder(.inbox)
            #expect(inbox.uidValidity != nil)
            #expect(inbox.lastSyncedUID == 6)
            #expect(inbox.lastSyncDate != nil)
            #expect(inbox.highestModSeq != nil)
            #expect(inbox.totalCount == 6)
            #expect(inbox.unreadCount == 4)
            let folders = try await fixture.store.getFolders(accountId: "acct-ada")
            #expect(Set(folders.map(\.folderType)) == [.inbox, .sent, .drafts, .trash, .spam, .archive])
            // A second sync with nothing new fetches nothing.
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").isEmpty)
            #expect(fixture.parser.count == 4)
        }

        @Test("NOTIF-19: syncAccountInboxFirst reports the inbox's new mail before other folders sync, then returns all new mail")
        func inboxFirst() async throws {
            let fixture = try await SyncFixture.start()
            for n in 0..<2 { try fixture.deliver(TestMessage.make("in-\(n)")) }
            try fixture.deliver(TestMessage.make("archived"), mailbox: "Archive")
            let seen = SeenAtCallback()
            let syncStore = fixture.syncStore
            let all = try await fixture.sync.syncAccountInboxFirst(accountId: "acct-ada") { inboxEmails in
                let archivedStored = (try? await syncStore.existingEmailIds(among: [TestMessage.emailId("archived")]))?.isEmpty == false
                await seen.record(inboxEmails.map(\.subject), archivedStored: archivedStored)
            }
            #expect(await seen.subjects == [["Message in-0", "Message in-1"]])
            #expect(await seen.archivedStoredEarly == false, "the callback runs before the other folders sync")
            #expect(Set(all.map(\.subject)) == ["Message in-0", "Message in-1", "Message archived"])
            #expect(all.first { $0.subject == "Message archived" }?.folderTypes == [.archive])
        }

        @Test("AC-F-05: an OAuth2 account syncs over TLS (certificate checked) with SASL XOAUTH2 and the provider's token")
        func oauthOverTLS() async throws {
            let fixture = try await SyncFixture.start()
            try fixture.deliver(TestMessage.make("secure"))
            var account = try #require(try await fixture.accounts.getAccount(id: "acct-ada"))
            account.authMethod = .oauth2
            account.security = .tls
            account.imapPort = fixture.server.imapsPort
            account.caFile = fixture.server.caFile
            try await fixture.accounts.updateAccount(account)
            let mark = fixture.server.logMark()
            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(new.map(\.subject) == ["Message secure"])
            try await fixture.server.waitForLog(since: mark) { $0.contains("Login: user=<ada>, method=XOAUTH2") && $0.contains("TLS") }
        }

        @Test("AC-F-06b: incremental sync fetches only the 10 new messages above the checkpoint")
        func incremental() async throws {
            let fixture = try await SyncFixture.start()
            for n in 0..<5 { try fixture.deliver(TestMessage.make("first-\(n)")) }
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            let before = fixture.parser.count
            for n in 0..<10 { try fixture.deliver(TestMessage.make("more-\(n)")) }
            let started = ContinuousClock.now
            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")
            let elapsed = ContinuousClock.now - started
            #expect(new.count == 10)
            #expect(Set(new.map(\.subject)) == Set((0..<10).map { "Message more-\($0)" }))
            #expect(fixture.parser.count - before == 10)
            // The spec's 5 s is measured by vaultmail-bench (incremental-10); here the bound has
            // room for a loaded 2-core machine, which can stall a test for seconds.
            #expect(elapsed < .seconds(30), "incremental sync of 10 took \(elapsed)")
            #expect(try await fixture.folder(.inbox).lastSyncedUID == 15)
        }

        @Test("AC-F-06b: a flag set or cleared by another client reaches the store", arguments: [true, false])
        func flagsFromServer(condstore: Bool) async throws {
            let capabilities = condstore ? nil : ["IMAP4rev1", "LITERAL+", "SASL-IR", "LOGIN-REFERRALS", "ID", "ENABLE", "IDLE", "SORT", "NAMESPACE", "UIDPLUS", "LIST-EXTENDED", "MOVE", "SPECIAL-USE"]
            let fixture = try await SyncFixture.start(capabilities: capabilities)
            for n in 0..<3 { try fixture.deliver(TestMessage.make("f-\(n)")) }
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            let other = try await fixture.otherClient()
            _ = try await other.select("INBOX")
            try await other.storeFlags([.seen, .flagged], .add, uids: UIDSet([2]))
            let inbox = try await fixture.folder(.inbox)
            let report = try await fixture.sync.syncFolderReport(accountId: "acct-ada", folderId: inbox.id)
            #expect(report.flagChanges == 1)
            let email = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("f-1")))
            #expect(email.isRead && email.isStarred)
            #expect(try await fixture.store.getThread(id: email.threadId)?.unreadCount == 0)

            try await other.storeFlags([.seen], .remove, uids: UIDSet([2]))
            try await fixture.sync.syncFolder(accountId: "acct-ada", folderId: inbox.id)
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("f-1"))?.isRead == false)
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("f-0"))?.isRead == false)
        }

        @Test("AC-F-06b: an expunge by another client removes the email; a move by another client moves it")
        func deletionsAndMoves() async throws {
            let fixture = try await SyncFixture.start()
            for n in 0..<3 { try fixture.deliver(TestMessage.make("d-\(n)")) }
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            let other = try await fixture.otherClient()
            _ = try await other.select("INBOX")
            try await other.storeFlags([.deleted], .add, uids: UIDSet([1]))
            try await other.expunge(UIDSet([1]))
            try await other.move(UIDSet([2]), to: "Archive")

            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(new.isEmpty, "a moved message is not new")
            #expect(try await fixture.store.getEmail(id: TestMessage.emailId("d-0")) == nil)
            let moved = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("d-1")))
            #expect(moved.folderTypes == [.archive])
            #expect(try await fixture.subjects(in: .inbox) == ["Message d-2"])
            #expect(try fixture.emailCount() == 2)
        }

        @Test("The same message in INBOX and another folder is one email with two links")
        func sameMessageTwoFolders() async throws {
            let fixture = try await SyncFixture.start()
            // One message, delivered twice: two `make` calls could straddle a second and differ in Date.
            let message = TestMessage.make("twice")
            try fixture.deliver(message)
            try fixture.deliver(message, mailbox: "Archive")
            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(new.count == 1)
            #expect(try fixture.emailCount() == 1)
            let email = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("twice")))
            #expect(email.folderTypes == [.inbox, .archive])
            #expect(try fixture.database.rowCounts()["emailFolder"] == 2)
        }

        @Test("E-03: a changed UIDVALIDITY re-syncs the folder without duplicating emails")
        func uidValidityChange() async throws {
            let fixture = try await SyncFixture.start()
            for n in 0..<4 { try fixture.deliver(TestMessage.make("u-\(n)")) }
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            let inbox = try await fixture.folder(.inbox)
            let oldValidity = try #require(inbox.uidValidity)
            let ids = Set(try await fixture.syncStore.uidMap(folderId: inbox.id).values)

            try fixture.server.doveadm(["mailbox", "update", "-u", "ada", "--uid-validity", "\(oldValidity + 1000)", "INBOX"])
            let report = try await fixture.sync.syncFolderReport(accountId: "acct-ada", folderId: inbox.id)

            #expect(report.uidValidityChanged)
            #expect(report.newEmails.isEmpty)
            #expect(try fixture.emailCount() == 4)
            let after = try await fixture.folder(.inbox)
            #expect(after.uidValidity == oldValidity + 1000)
            #expect(Set(try await fixture.syncStore.uidMap(folderId: inbox.id).values) == ids)
            #expect(try await fixture.store.getThreads(folderId: inbox.id, category: nil, cursor: nil, limit: 25).threads.count == 4)
        }

        @Test("Folders created, renamed and deleted on the server are reflected; a rename keeps its mail")
        func folderChanges() async throws {
            let fixture = try await SyncFixture.start()
            let other = try await fixture.otherClient()
            try await other.createMailbox("Projects")
            try await other.createMailbox("Old")
            try fixture.deliver(TestMessage.make("p-1"), mailbox: "Projects")
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            let projects = try #require(try await fixture.folder(path: "Projects"))
            #expect(projects.folderType == .custom)
            #expect(try await fixture.folder(path: "Old") != nil)

            try await other.renameMailbox("Projects", to: "Work")
            try await other.deleteMailbox("Old")
            try await other.createMailbox("Fresh")
            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(new.isEmpty, "the renamed folder's mail is not new")
            #expect(try await fixture.folder(path: "Projects") == nil)
            #expect(try await fixture.folder(path: "Old") == nil)
            #expect(try await fixture.folder(path: "Fresh") != nil)
            let work = try #require(try await fixture.folder(path: "Work"))
            #expect(work.uidValidity == projects.uidValidity)
            let email = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("p-1")))
            #expect(email.folderTypes == [.custom])
            #expect(try await fixture.syncStore.uidMap(folderId: work.id).values.contains(email.id))
        }

        @Test("E-01: a sync interrupted mid-batch resumes from its checkpoint; nothing is fetched twice or lost")
        func resumeFromCheckpoint() async throws {
            let failing = FailingSyncRepository.Control(failAfterBatches: 2)
            let fixture = try await SyncFixture.start(batchSize: 5) { FailingSyncRepository(base: $0, control: failing) }
            for n in 0..<23 { try fixture.deliver(TestMessage.make("r-\(n)")) }

            let error = try await #require(throws: SyncError.self) { try await fixture.sync.syncAccount(accountId: "acct-ada") }
            #expect(error.newEmails.count == 10, "the emails stored before the failure are reported")
            #expect(try fixture.emailCount() == 10)
            let inbox = try await fixture.folder(.inbox)
            #expect(inbox.lastSyncedUID == nil, "an initial sync goes newest first: its checkpoint moves when it completes")
            #expect(inbox.lastSyncDate == nil, "the initial sync is not complete")
            #expect(error.newEmails.map(\.subject).sorted() == (13..<23).map { "Message r-\($0)" }.sorted(), "the newest were stored first")

            failing.disarm()
            let parsedBefore = fixture.parser.count
            let rest = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(rest.count == 13)
            #expect(fixture.parser.count - parsedBefore == 13, "the resumed sync fetches only what was not stored")
            #expect(try fixture.emailCount() == 23)
            #expect(try await fixture.folder(.inbox).lastSyncedUID == 23)
        }

        @Test("E-01: Dovecot killed during an initial sync: the sync fails with the server named; after restart it resumes")
        func killedDuringSync() async throws {
            let killer = FailingSyncRepository.Control(failAfterBatches: nil)
            let fixture = try await SyncFixture.start(batchSize: 4) { FailingSyncRepository(base: $0, control: killer) }
            for n in 0..<20 { try fixture.deliver(TestMessage.make("k-\(n)")) }
            let server = fixture.server
            killer.afterBatch = { count in if count == 1 { server.kill() } }
            let error = try await #require(throws: SyncError.self) { try await fixture.sync.syncAccount(accountId: "acct-ada") }
            #expect(error.description.contains("127.0.0.1:\(fixture.server.imapPort)"))
            #expect(error.description.contains("INBOX"))
            let stored = try fixture.emailCount()
            #expect(stored >= 4 && stored < 20)

            try await fixture.server.restart()
            let parsedBefore = fixture.parser.count
            let rest = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(rest.count == 20 - stored)
            #expect(fixture.parser.count - parsedBefore == 20 - stored)
            #expect(try fixture.emailCount() == 20)
        }

        @Test("E-08: two accounts sync concurrently and independently, without deadlock", .timeLimit(.minutes(2)))
        func concurrentAccounts() async throws {
            let fixture = try await SyncFixture.start(users: ["ada", "bob"], batchSize: 7)
            for n in 0..<40 {
                try fixture.deliver(TestMessage.make("a-\(n)"), to: "ada")
                try fixture.deliver(TestMessage.make("b-\(n)"), to: "bob")
            }
            try fixture.deliver(TestMessage.make("shared"), to: "ada")
            try fixture.deliver(TestMessage.make("shared"), to: "bob")
            async let ada = fixture.sync.syncAccount(accountId: "acct-ada")
            async let bob = fixture.sync.syncAccount(accountId: "acct-bob")
            async let adaAgain = fixture.sync.syncFolderList(accountId: "acct-ada")
            let (adaEmails, bobEmails, _) = try await (ada, bob, adaAgain)
            #expect(adaEmails.count == 41)
            #expect(bobEmails.count == 41)
            #expect(Set(adaEmails.map(\.accountId)) == ["acct-ada"])
            #expect(Set(bobEmails.map(\.accountId)) == ["acct-bob"])
            #expect(try fixture.emailCount() == 82, "the same Message-ID in two accounts is two emails")
        }

        @Test("AC-F-06: a reply synced before its parent ends in one thread once the parent arrives; a late parent merges threads")
        func threadingAcrossSyncs() async throws {
            let fixture = try await SyncFixture.start()
            let base = Date().addingTimeInterval(-3600)
            // Two replies to a root we do not have yet, one naming it only in In-Reply-To.
            try fixture.deliver(TestMessage.make("reply-a", subject: "Re: plan", date: base.addingTimeInterval(60), inReplyTo: "root", references: ["root"]))
            try fixture.deliver(TestMessage.make("reply-b", subject: "Re: plan", date: base.addingTimeInterval(120), inReplyTo: "mid"))
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            let a = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("reply-a")))
            let b = try #require(try await fixture.store.getEmail(id: TestMessage.emailId("reply-b")))
            #expect(a.threadId != b.threadId)

            // The middle message (a reply to root, parent of reply-b) arrives late and joins them.
            try fixture.deliver(TestMessage.make("mid", subject: "Re: plan", date: base.addingTimeInterval(90), inReplyTo: "root", references: ["root"]))
            try fixture.deliver(TestMessage.make("root", subject: "plan", date: base))
            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(new.count == 2)
            let all = try await ["root", "mid", "reply-a", "reply-b"].asyncMap { try await fixture.store.getEmail(id: TestMessage.emailId($0)) }
            let threads = Set(all.compactMap { $0?.threadId })
            #expect(threads.count == 1)
            let threadId = try #require(threads.first)
            let thread = try #require(try await fixture.store.getThread(id: threadId))
            #expect(thread.messageCount == 4)
            #expect(Set(new.map(\.threadId)) == threads, "returned emails carry their final thread")
            #expect(try fixture.database.rowCounts()["thread"] == 1)
        }

        /// 20 MB keeps the suite light beside the others; the parser's own test reads 50 MB.
        @Test("E-07: a message with a 20 MB attachment syncs through IMAP: its body and the attachment's metadata are stored")
        func largeAttachment() async throws {
            let fixture = try await SyncFixture.start()
            let line = String(repeating: "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2", count: 1) + "\r\n"
            let base64 = String(repeating: line, count: 20 * 1024 * 1024 / 48 + 1)
            let message = [
                "From: Grace <grace@example.com>", "To: ada@example.com", "Subject: Big one",
                "Message-ID: <big@example.com>", "Date: \(TestMessage.rfc822(Date()))", "MIME-Version: 1.0",
                "Content-Type: multipart/mixed; boundary=\"b\"", "", "--b", "Content-Type: text/plain", "",
                "See the attached dump.", "--b", "Content-Type: application/octet-stream",
                "Content-Disposition: attachment; filename=\"dump.bin\"", "Content-Transfer-Encoding: base64", "",
                base64 + "--b--", "",
            ].joined(separator: "\r\n")
            try fixture.deliver(Data(message.utf8))
            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")
            let email = try #require(new.first)
            #expect(email.bodyPlain?.contains("See the attached dump.") == true)
            #expect(email.hasAttachments)
            let attachments = try await fixture.store.getAttachments(emailId: email.id)
            #expect(attachments.map(\.filename) == ["dump.bin"])
            #expect(try #require(attachments.first).sizeBytes >= 20 * 1024 * 1024)
            #expect(email.sizeBytes > 20 * 1024 * 1024)
        }

        @Test("Errors name the account: credentials that cannot be read, an unknown account")
        func errors() async throws {
            let fixture = try await SyncFixture.start()
            var account = try #require(try await fixture.accounts.getAccount(id: "acct-ada"))
            account.id = "acct-nobody"
            account.name = "nobody"
            try await fixture.accounts.addAccount(account)
            let error = try await #require(throws: (any Error).self) { try await fixture.sync.syncAccount(accountId: "acct-nobody") }
            #expect("\(error)".contains("nobody"))
            let unknown = try await #require(throws: SyncError.self) { try await fixture.sync.syncAccount(accountId: "acct-ghost") }
            #expect(unknown.kind == .accountNotFound)
        }
    }
}

/// What the `onInboxSynced` callback saw.
actor SeenAtCallback {
    var subjects: [[String]] = []
    var archivedStoredEarly: Bool?

    func record(_ subjects: [String], archivedStored: Bool) {
        self.subjects.append(subjects.sorted())
        archivedStoredEarly = archivedStored
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
