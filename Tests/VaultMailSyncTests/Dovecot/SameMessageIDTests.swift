import Foundation
import GRDB
import Testing
import VaultMailCore
import VaultMailIMAP
import VaultMailMIME
@testable import VaultMailStore
@testable import VaultMailSync
import VaultMailTesting

extension DovecotSyncTests {
    /// Issue 17, "Messages lost or misread": two different messages with one Message-ID are
    /// two emails, the same message in two places is one (`EmailIdentity`).
    @Suite("Same Message-ID, other message")
    struct SameMessageIDTests {
        static let date = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3 * 86_400).rounded(.down))

        /// Every stored email of the account with `<id@example.com>`, by subject.
        static func emails(_ fixture: SyncFixture, _ id: String) async throws -> [String: Email] {
            let found = try await fixture.syncStore.emails(accountId: "acct-ada", messageIds: ["<\(id)@example.com>"])
            return Dictionary(found.map { ($0.subject, $0) }, uniquingKeysWith: { first, _ in first })
        }

        /// The emails of the INBOX thread list's conversations that hold `email`.
        static func shownThread(_ fixture: SyncFixture, of email: Email) async throws -> (EmailThread, [Email]) {
            let inbox = try await fixture.folder(.inbox)
            let page = try await fixture.store.getThreads(folderId: inbox.id, category: nil, cursor: nil, limit: 100)
            let thread = try #require(page.threads.first { $0.id == email.threadId }, "the conversation is listed in the inbox")
            return (thread, try await fixture.store.getEmails(threadId: thread.id))
        }

        @Test("Two different messages with one Message-ID in INBOX, synced apart: both stored, listed and shown, in one conversation with a later reply")
        func separateSyncs() async throws {
            let fixture = try await SyncFixture.start()
            try fixture.deliver(TestMessage.make("twin", subject: "Invoice 1", date: Self.date, body: "Amount: 10 EUR."))
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            try fixture.deliver(TestMessage.make(
                "twin", subject: "Invoice 2", from: "Billing <billing@example.com>", date: Self.date.addingTimeInterval(3600),
                body: "Amount: 250 EUR, due Friday."))
            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(new.map(\.subject) == ["Invoice 2"], "the second message is new mail")

            let twins = try await Self.emails(fixture, "twin")
            #expect(Set(twins.keys) == ["Invoice 1", "Invoice 2"])
            let first = try #require(twins["Invoice 1"])
            let second = try #require(twins["Invoice 2"])
            #expect(first.id == TestMessage.emailId("twin"), "the first keeps the id it always had")
            #expect(second.id != first.id)
            #expect(second.bodyPlain?.contains("250 EUR") == true)
            #expect(first.threadId == second.threadId)
            let inbox = try await fixture.folder(.inbox)
            #expect(try await fixture.syncStore.uidMap(folderId: inbox.id) == [1: first.id, 2: second.id], "each has its own UID")

            // A reply to that Message-ID joins the same conversation.
            try fixture.deliver(TestMessage.make("reply", subject: "Re: Invoice", date: Self.date.addingTimeInterval(7200), inReplyTo: "twin"))
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            let reply = try #require(try await Self.emails(fixture, "reply")["Re: Invoice"])
            #expect(reply.threadId == first.threadId)
            let (thread, shown) = try await Self.shownThread(fixture, of: first)
            #expect(thread.messageCount == 3)
            #expect(shown.map(\.subject).sorted() == ["Invoice 1", "Invoice 2", "Re: Invoice"])
            #expect(try await fixture.sync.syncAccount(accountId: "acct-ada").isEmpty)
        }

        @Test("Two different messages with one Message-ID in the same fetch batch are both stored; a copy in that batch stays one email")
        func sameBatch() async throws {
            let fixture = try await SyncFixture.start()
            let notice = TestMessage.make("batch", subject: "Delivery notice", date: Self.date, body: "Your parcel is on its way.")
            try fixture.deliver(notice)
            try fixture.deliver(TestMessage.make(
                "batch", subject: "Undelivered Mail Returned to Sender", from: "MAILER-DAEMON <mailer-daemon@example.com>",
                date: Self.date.addingTimeInterval(60), body: "This is the mail system: your message could not be delivered."))
            try fixture.deliver(notice)  // a byte-identical copy

            let new = try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(Set(new.map(\.subject)) == ["Delivery notice", "Undelivered Mail Returned to Sender"])
            #expect(new.count == 2)
            let stored = try await Self.emails(fixture, "batch")
            #expect(stored.count == 2)
            let notified = try #require(stored["Delivery notice"])
            let bounce = try #require(stored["Undelivered Mail Returned to Sender"])
            #expect(bounce.fromAddress == "mailer-daemon@example.com")
            let (thread, shown) = try await Self.shownThread(fixture, of: notified)
            #expect(thread.messageCount == 2)
            #expect(Set(shown.map(\.id)) == [notified.id, bounce.id])
        }

        @Test("The same message in INBOX and Archive is one email with two links; sent to oneself (other Received headers) it is one email in Sent and INBOX")
        func copiesStayOne() async throws {
            let fixture = try await SyncFixture.start()
            let other = try await fixture.otherClient()
            try fixture.deliver(TestMessage.make("copied", subject: "Minutes", date: Self.date, body: "Decisions of the meeting."))
            _ = try await other.select("INBOX")
            _ = try await other.copy(UIDSet([1]), to: "Archive")
            // Sent by Ada to herself: the Sent copy as her mailer stored it, the INBOX copy as delivered.
            let sent = TestMessage.make(
                "self", subject: "Reminder", from: "Ada <ada@example.com>", date: Self.date, body: "Dentist at 9.")
            _ = try await other.append(sent, to: "Sent", flags: [.seen])
            let delivered = TestMessage.make(
                "self", subject: "Reminder", from: "Ada <ada@example.com>", date: Self.date,
                extraHeaders: ["Received: from mx.example.com by imap.example.com; \(TestMessage.rfc822(Self.date.addingTimeInterval(5)))",
                               "Delivered-To: ada@example.com"],
                body: "Dentist at 9.")
            try fixture.deliver(Data("Return-Path: <ada@example.com>\r\n".utf8) + delivered)

            try await fixture.sync.syncAccount(accountId: "acct-ada")
            // And a copy made after the first sync.
            _ = try await other.copy(UIDSet([1]), to: "Junk")
            try await fixture.sync.syncAccount(accountId: "acct-ada")

            let copied = try await Self.emails(fixture, "copied")
            #expect(copied.count == 1)
            let minutes = try #require(copied["Minutes"])
            #expect(minutes.id == TestMessage.emailId("copied"))
            let folders = try await fixture.store.getFolders(accountId: "acct-ada")
            let paths = Dictionary(uniqueKeysWithValues: folders.map { ($0.id, $0.path) })
            let links = try await fixture.syncStore.links(emailIds: [minutes.id])
            #expect(Set(links.compactMap { paths[$0.folderId] }) == ["INBOX", "Archive", "Junk"])
            #expect(links.allSatisfy { $0.uid != nil })

            let selfSent = try await Self.emails(fixture, "self")
            #expect(selfSent.count == 1)
            let reminder = try #require(selfSent["Reminder"])
            let reminderLinks = try await fixture.syncStore.links(emailIds: [reminder.id])
            #expect(Set(reminderLinks.compactMap { paths[$0.folderId] }) == ["INBOX", "Sent"])
            #expect(try fixture.emailCount() == 2)
        }

        @Test("Expunging one of two messages with one Message-ID keeps the other; each keeps its own flags")
        func expungeOne() async throws {
            let fixture = try await SyncFixture.start()
            let other = try await fixture.otherClient()
            try fixture.deliver(TestMessage.make("pair", subject: "Version A", date: Self.date, body: "First text."))
            try fixture.deliver(TestMessage.make("pair", subject: "Version B", date: Self.date.addingTimeInterval(60), body: "Second, longer text."))
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(try await Self.emails(fixture, "pair").count == 2)

            _ = try await other.select("INBOX")
            try await other.storeFlags([.seen, .flagged], .add, uids: UIDSet([2]))
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            var pair = try await Self.emails(fixture, "pair")
            #expect(pair["Version A"]?.isRead == false)
            #expect(pair["Version A"]?.isStarred == false)
            #expect(pair["Version B"]?.isRead == true)
            #expect(pair["Version B"]?.isStarred == true)

            try await other.storeFlags([.deleted], .add, uids: UIDSet([1]))
            try await other.expunge(UIDSet([1]))
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            pair = try await Self.emails(fixture, "pair")
            #expect(Set(pair.keys) == ["Version B"])
            let kept = try #require(pair["Version B"])
            #expect(kept.isRead && kept.isStarred)
            let (thread, shown) = try await Self.shownThread(fixture, of: kept)
            #expect(thread.messageCount == 1)
            #expect(shown.map(\.subject) == ["Version B"])

            // The survivor's own expunge removes it too.
            try await other.storeFlags([.deleted], .add, uids: UIDSet([2]))
            try await other.expunge(UIDSet([2]))
            try await fixture.sync.syncAccount(accountId: "acct-ada")
            #expect(try await Self.emails(fixture, "pair").isEmpty)
        }

        // MARK: - A store from before message identity

        /// A store at `v9-summaries` holding what the previous version stored for the server's
        /// mail, then opened (migrated) by the production migrator.
        ///
        /// INBOX: UID 1 "Twin A" and UID 2 "Twin B" share `<twin-1>`, synced in two syncs: one
        /// email with A's content whose INBOX link took UID 2. UID 3 "Pair C" and UID 4 "Pair D"
        /// share `<twin-2>`, synced in one batch: one email (C) linked to UID 3, D dropped.
        /// UID 5 is a message of its own. UID 6 "Cross E" and Archive UID 1 "Cross F" share
        /// `<twin-3>`: one email (E) linked to both.
        static func oldStore(_ fixture: SyncFixture, at path: String) async throws -> AppDatabase {
            let other = try await fixture.otherClient()
            let messages: [(String, String, String)] = [
                ("twin-1", "Twin A", "short"), ("twin-1", "Twin B", "a rather longer second body"),
                ("twin-2", "Pair C", "third"), ("twin-2", "Pair D", "the fourth message, longer"),
                ("solo", "Solo", "alone"), ("twin-3", "Cross E", "fifth"),
            ]
            for (index, (id, subject, body)) in messages.enumerated() {
                try fixture.deliver(TestMessage.make(id, subject: subject, date: Self.date.addingTimeInterval(Double(index) * 60), body: body))
            }
            try fixture.deliver(TestMessage.make(
                "twin-3", subject: "Cross F", date: Self.date.addingTimeInterval(600), body: "sixth and in the archive"), mailbox: "Archive")

            let account = try #require(try await fixture.accounts.getAccount(id: "acct-ada"))
            let inbox = Folder(accountId: account.id, name: "Inbox", path: "INBOX", folderType: .inbox)
            let archive = Folder(accountId: account.id, name: "Archive", path: "Archive", folderType: .archive)
            let parser = GMimeMessageParser()
            func fetch(_ folder: Folder) async throws -> (IMAPMailboxStatus, [UInt32: FetchedMessage]) {
                let status = try await other.examine(folder.path)
                var fetched: [UInt32: FetchedMessage] = [:]
                for message in try await other.fetchMessages(UIDSet(1...(status.uidNext - 1)), items: .fullMessage) {
                    var item = FetchedMessage(
                        message: message, parsed: parser.parse([UInt8](message.rawMessage ?? Data())), accountId: account.id,
                        folderId: folder.id, now: Date())
                    item.incoming.email.threadId = EmailThread.stableID(accountId: account.id, rootMessageId: item.incoming.email.messageId)
                    fetched[message.uid] = item
                }
                return (status, fetched)
            }
            let (inboxStatus, inboxMail) = try await fetch(inbox)
            let (archiveStatus, _) = try await fetch(archive)
            func link(_ item: FetchedMessage?, _ links: [(Folder, UInt32)]) throws -> IncomingEmail {
                var incoming = try #require(item).incoming
                incoming.links = links.map { EmailFolder(emailId: incoming.email.id, folderId: $0.0.id, uid: $0.1) }
                return incoming
            }
            let oldRows = [
                try link(inboxMail[1], [(inbox, 2)]),  // A's content, B's UID
                try link(inboxMail[3], [(inbox, 3)]),
                try link(inboxMail[5], [(inbox, 5)]),
                try link(inboxMail[6], [(inbox, 6), (archive, 1)]),
            ]

            let pool = try DatabasePool(path: path)
            try AppDatabase.migrator.migrate(pool, upTo: "v9-summaries")
            try await pool.write { db in
                try db.execute(sql: "INSERT INTO account(\(Account.columns)) VALUES (\(placeholders(16)))", arguments: account.databaseArguments)
                for (folder, status) in [(inbox, inboxStatus), (archive, archiveStatus)] {
                    var synced = folder
                    synced.uidValidity = status.uidValidity
                    synced.lastSyncedUID = status.uidNext - 1
                    synced.lastSyncDate = Date()
                    synced.historyWindowDays = account.syncWindowDays
                    synced.totalCount = Int(status.exists)
                    try db.execute(sql: "INSERT INTO folder(\(Folder.columns)) VALUES (\(placeholders(12)))", arguments: synced.databaseArguments)
                }
                _ = try db.saveEmails(oldRows)
            }
            try pool.close()
            return try AppDatabase.open(path: path)
        }

        @Test("A store of the previous version recovers the messages it lost after the migration and one sync, fetching only those")
        func oldStoreRecovers() async throws {
            let fixture = try await SyncFixture.start()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identity-recovery-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let database = try await Self.oldStore(fixture, at: directory.appendingPathComponent("store.sqlite").path)
            let store = GRDBEmailRepository(database: database)
            let syncStore = GRDBSyncRepository(database: database)
            let parser = CountingParser()
            let sync = SyncEmailsUseCase(
                accounts: GRDBAccountRepository(database: database), store: store, syncStore: syncStore, parser: parser,
                connections: fixture.connections, clock: fixture.clock, options: SyncOptions(batchSize: 50))
            func emails(_ id: String) async throws -> [String: Email] {
                let found = try await syncStore.emails(accountId: "acct-ada", messageIds: ["<\(id)@example.com>"])
                return Dictionary(found.map { ($0.subject, $0) }, uniquingKeysWith: { first, _ in first })
            }
            #expect(try await emails("twin-1").keys.sorted() == ["Twin A"], "the old store lost Twin B")
            #expect(try await emails("twin-2").keys.sorted() == ["Pair C"], "the old store lost Pair D")

            let recovered = try await sync.syncAccount(accountId: "acct-ada")
            #expect(Set(recovered.map(\.subject)) == ["Twin B", "Pair D", "Cross F"])
            #expect(parser.count == 4, "only INBOX 1, 2, 4 and Archive 1 are fetched again")

            let folders = try await store.getFolders(accountId: "acct-ada")
            let inbox = try #require(folders.first { $0.path == "INBOX" })
            let archive = try #require(folders.first { $0.path == "Archive" })
            let twin1 = try await emails("twin-1")
            let twin2 = try await emails("twin-2")
            let twin3 = try await emails("twin-3")
            let solo = try #require(try await emails("solo")["Solo"])
            let twinA = try #require(twin1["Twin A"])
            let twinB = try #require(twin1["Twin B"])
            let pairC = try #require(twin2["Pair C"])
            let pairD = try #require(twin2["Pair D"])
            let crossE = try #require(twin3["Cross E"])
            let crossF = try #require(twin3["Cross F"])
            #expect(twinA.id == TestMessage.emailId("twin-1"), "the stored email keeps its id")
            #expect(pairC.id == TestMessage.emailId("twin-2"))
            #expect(try await syncStore.uidMap(folderId: inbox.id) == [
                1: twinA.id, 2: twinB.id, 3: pairC.id, 4: pairD.id, 5: solo.id, 6: crossE.id,
            ])
            #expect(try await syncStore.uidMap(folderId: archive.id) == [1: crossF.id])
            #expect(try await syncStore.links(emailIds: [crossE.id]).map(\.folderId) == [inbox.id], "E is not in the archive")
            #expect(twinB.bodyPlain?.contains("rather longer") == true)
            #expect(twinA.threadId == twinB.threadId)
            let page = try await store.getThreads(folderId: inbox.id, category: nil, cursor: nil, limit: 100)
            #expect(page.threads.first { $0.id == twinA.threadId }?.messageCount == 2)
            #expect(try await store.getEmails(threadId: pairC.threadId).map(\.subject).sorted() == ["Pair C", "Pair D"])
            for folder in [inbox, archive] {
                #expect(try await syncStore.pendingIdentityCheck(folderId: folder.id) == nil, "checked once: \(folder.path)")
            }

            // Nothing more to fetch afterwards.
            #expect(try await sync.syncAccount(accountId: "acct-ada").isEmpty)
            #expect(parser.count == 4)
        }
    }
}
