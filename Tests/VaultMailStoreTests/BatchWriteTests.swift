import Foundation
import GRDB
import Testing
import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

/// The set-based write paths (issue 18): a batch is stored with multi-row inserts, new
/// threads get their aggregates computed from the batch, stored threads are refreshed once,
/// and nothing differs from recomputing everything from the emails.
@Suite("Store batch writes (issue 18)")
struct BatchWriteTests {
    let store: StoreFixture

    init() async throws {
        store = try await StoreFixture()
    }

    var inbox: Folder { store.folder(.inbox) }
    var archive: Folder { store.folder(.archive) }

    /// Email `n` of thread `n % threads`, in a mix of read, starred, categories, senders
    /// (one address in two cases, a name only on later mail) and equal dates.
    func email(_ n: Int, threads: Int) -> Email {
        var email = MailFixtures.email(
            accountId: "acct-work", number: n, threadId: "T\(n % threads)",
            from: [0: "Ada@Example.org", 1: "ada@example.org"][n / threads % 4] ?? "bob\(n % 3)@example.org",
            fromName: [0: nil, 1: "Ada"][n / threads % 4] ?? "",
            subject: "Subject \(n)",
            date: MailFixtures.referenceDate.addingTimeInterval(Double(n / (threads * 2)) * 60),
            isRead: n % 3 == 0, isStarred: n % 7 == 0,
            category: AICategory.allCases[n % AICategory.allCases.count])
        email.snippet = "Snippet \(n)"
        return email
    }

    func threadRows() throws -> [Row] {
        try store.database.writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM thread ORDER BY id") }
    }

    /// threadFolder's unread flag and category as the thread has them.
    func threadFolderStateDrift() throws -> Int {
        try store.database.writer.read { db in
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM threadFolder tf JOIN thread t ON t.id = tf.threadId
                WHERE tf.isUnread != (t.unreadCount > 0) OR tf.category IS NOT t.aiCategory
                """) ?? -1
        }
    }

    @Test("Thread totals after a batch across 600 threads, half of them stored before, equal a full recount")
    func threadTotalsAcrossManyThreads() async throws {
        let threads = 600
        // One email in each of half the threads first: the second batch adds to stored threads too.
        try await store.emails.saveEmails((0..<threads / 2).map {
            MailFixtures.incoming(email($0, threads: threads), in: [inbox], uid: UInt32($0 + 1))
        })
        // 1,800 more, interleaved across threads, some with attachments, two in the archive too.
        var batch: [IncomingEmail] = (threads / 2..<threads * 3 + threads / 2).map { n in
            let message = email(n, threads: threads)
            var item = MailFixtures.incoming(message, in: n % 10 == 0 ? [inbox, archive] : [inbox], uid: UInt32(n + 1))
            if n % 9 == 0 {
                item.attachments = [Attachment(emailId: message.id, filename: "Report-\(n).pdf", mimeType: "application/pdf", sizeBytes: 10)]
            }
            return item
        }
        batch.reverse()
        // The same message twice (the second gains a link), and a stored one with a new link.
        batch.append(MailFixtures.incoming(email(threads + 1, threads: threads), in: [archive], uid: 9_999))
        batch.append(MailFixtures.incoming(email(0, threads: threads), in: [archive], uid: 9_998))
        let stored = try await store.emails.saveEmails(batch)

        #expect(stored.count == threads * 3)
        #expect(Set(stored.map(\.id)).count == threads * 3)
        let twice = try #require(stored.first { $0.id == email(threads + 1, threads: threads).id })
        #expect(twice.folderTypes == [.inbox, .archive])
        #expect(stored.first { $0.id == email(threads + 3, threads: threads).id }?.folderTypes == [.inbox])
        #expect(stored.filter(\.hasAttachments).count == (threads / 2..<threads * 3 + threads / 2).filter { $0 % 9 == 0 }.count)
        let first = try #require(try await store.emails.getEmail(id: email(0, threads: threads).id))
        #expect(first.folderTypes == [.inbox, .archive])

        // Every thread row is what recomputing it from all its emails gives.
        let before = try threadRows()
        #expect(before.count == threads)
        try await store.database.writer.write { db in
            try db.refreshThreads(try String.fetchAll(db, sql: "SELECT id FROM thread"))
        }
        #expect(try threadRows() == before)
        for id in ["T0", "T1", "T299", "T300", "T599"] {
            let emails = try await store.emails.getEmails(threadId: id)
            let thread = try #require(try await store.emails.getThread(id: id))
            #expect(thread.messageCount == emails.count)
            #expect(thread.unreadCount == emails.filter { !$0.isRead }.count)
            #expect(thread.latestDate == emails.map(\.dateReceived).max())
        }
        for id in ["T0", "T599"] {
            // Stored (T0) or new (T599): one Ada, named by her second email.
            let thread = try #require(try await store.emails.getThread(id: id))
            let ada = Participant.decode(from: thread.participants).filter { $0.email.lowercased() == "ada@example.org" }
            #expect(ada.map(\.name) == ["Ada"])
        }

        let drift = try store.database.membershipDrift()
        #expect(drift.threadFolder == 0)
        #expect(drift.inboxLinks == 0)
        #expect(try threadFolderStateDrift() == 0)
        let counts = try store.database.rowCounts()
        #expect(counts["email"] == threads * 3 + threads / 2)
        #expect(counts["emailSearch"] == counts["email"])
        #expect(counts["emailFieldSearch"] == counts["email"])
        #expect(counts["attachment"] == (threads / 2..<threads * 3 + threads / 2).filter { $0 % 9 == 0 }.count)
        #expect(counts["messageReference"] == counts["email"])
        let filenames = try await store.database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT filenames FROM emailFieldSearch WHERE filenames IS NOT NULL")
        }
        #expect(filenames.count == counts["attachment"])
        #expect(filenames.allSatisfy { $0.hasPrefix("report-") && $0.hasSuffix(".pdf") })
    }

    @Test("setEmailsRead on 1,000 ids: every thread's unread count, the badge and the unread threads follow")
    func setEmailsReadOnAThousand() async throws {
        // Threads of two: emails 2k and 2k + 1 in thread Tk.
        let emails = try await store.add(0..<1_000) { $0.threadId = "T\(Int($0.subject.dropFirst("Message ".count))! / 2)" }
        #expect(emails.count == 1_000)
        #expect(try await store.emails.getInboxUnreadCount() == 1_000)
        #expect(try await store.emails.getUnreadCounts(folderId: inbox.id)[nil] == 500)

        try await store.emails.setEmailsRead(ids: emails.map(\.id), isRead: true)
        #expect(try await store.emails.getInboxUnreadCount() == 0)
        #expect(try await store.emails.getUnreadCounts(folderId: inbox.id)[nil] ?? 0 == 0)
        let unreadThreads = try await store.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM thread WHERE unreadCount != 0")
        }
        #expect(unreadThreads == 0)

        // Unread again: 600 emails, so threads T0…T299 have both emails unread.
        try await store.emails.setEmailsRead(ids: Array(emails.map(\.id).prefix(600)), isRead: false)
        #expect(try await store.emails.getInboxUnreadCount() == 600)
        #expect(try await store.emails.getUnreadCounts(folderId: inbox.id)[nil] == 300)
        #expect(try await store.emails.getThread(id: "T0")?.unreadCount == 2)
        #expect(try await store.emails.getThread(id: "T300")?.unreadCount == 0)
        #expect(try threadFolderStateDrift() == 0)

        // An unknown id among a thousand still changes nothing.
        await #expect(throws: RepositoryError.emailNotFound(id: "nope")) {
            try await store.emails.setEmailsRead(ids: emails.map(\.id) + ["nope"], isRead: true)
        }
        #expect(try await store.emails.getInboxUnreadCount() == 600)
    }

    @Test("getEmails(ids:) reads 1,200 emails at once with their folder types, skipping unknown ids")
    func getEmailsByIds() async throws {
        let emails = try await store.add(0..<1_200, in: [.inbox, .archive])
        let found = try await store.emails.getEmails(ids: emails.map(\.id) + ["missing"])
        #expect(Set(found.map(\.id)) == Set(emails.map(\.id)))
        #expect(found.allSatisfy { $0.folderTypes == [.inbox, .archive] })
    }

    @Test("A sync batch releases a UID held by another email and records fingerprints in the insert")
    func syncBatchUIDsAndFingerprints() async throws {
        let sync = GRDBSyncRepository(database: store.database)
        let old = try await store.add([1]).first!
        var newer = MailFixtures.email(accountId: "acct-work", number: 2)
        newer.subject = "Another message"
        // The new message holds UID 2, which the stored email's link had.
        try await sync.storeSyncBatch(SyncBatch(folderId: inbox.id, emails: [MailFixtures.incoming(newer, in: [inbox], uid: 2)]))
        let links = try await sync.links(emailIds: [old.id, newer.id])
        #expect(links.first { $0.emailId == old.id }?.uid == nil)
        #expect(links.first { $0.emailId == newer.id }?.uid == 2)
        let fingerprints = try store.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, contentFingerprint FROM email ORDER BY id")
        }
        func fingerprint(_ id: String) -> String? {
            fingerprints.first { ($0["id"] as String) == id }.flatMap { $0["contentFingerprint"] as String? }
        }
        #expect(fingerprint(newer.id) == EmailIdentity.fingerprint(of: newer, attachmentSizes: []))
        // Stored by the email repository (not sync): fingerprinted when sync sees it again.
        #expect(fingerprint(old.id) == nil)
        try await sync.storeSyncBatch(SyncBatch(folderId: inbox.id, emails: [MailFixtures.incoming(old, in: [inbox], uid: 1)]))
        let refound = try await store.database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT contentFingerprint FROM email WHERE id = ?", arguments: [old.id])
        }
        #expect(refound == EmailIdentity.fingerprint(of: old, attachmentSizes: []))
    }

    @Test("vaultmail_fold's ASCII path folds as SearchText.fold does", arguments: [
        "Ada Lovelace <ADA@Example.ORG>", "", "0123456789 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
        String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) }), "José MÜLLER", "Ｆｕｌｌ ｗｉｄｔｈ", "Ελληνικά",
    ])
    func foldFastPath(text: String) {
        #expect(SearchFunctions.foldText(text) == SearchText.fold(text))
    }
}
