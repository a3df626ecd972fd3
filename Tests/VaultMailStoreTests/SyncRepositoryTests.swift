import Foundation
import GRDB
import Testing
import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

@Suite("GRDBSyncRepository (AC-F-06, AC-F-06b, E-01, E-03)")
struct SyncRepositoryTests {
    let store: StoreFixture
    let sync: GRDBSyncRepository

    init() async throws {
        store = try await StoreFixture()
        sync = GRDBSyncRepository(database: store.database)
    }

    var inbox: Folder { store.folder(.inbox) }
    var archive: Folder { store.folder(.archive) }

    func expectNoDrift() throws {
        let drift = try store.database.membershipDrift()
        #expect(drift.threadFolder == 0)
        #expect(drift.inboxLinks == 0)
    }

    @Test("AC-F-06b: emails are found by (folder, UID) and by Message-ID; uidMap lists known UIDs")
    func lookups() async throws {
        try await store.add(0..<3)
        let map = try await sync.uidMap(folderId: inbox.id)
        #expect(map.keys.sorted() == [1, 2, 3])
        let byUID = try await sync.emails(folderId: inbox.id, uids: [2, 9])
        #expect(byUID.keys.sorted() == [2])
        #expect(byUID[2]?.subject == "Message 1")
        #expect(byUID[2]?.folderTypes == [.inbox])
        let byMessageId = try await sync.emails(accountId: "acct-work", messageIds: ["<msg-2@example.com>", "<nope@x>"])
        #expect(byMessageId.map(\.subject) == ["Message 2"])
        let ids = try await sync.existingEmailIds(among: byMessageId.map(\.id) + ["missing"])
        #expect(ids == Set(byMessageId.map(\.id)))
    }

    @Test("AC-F-06b: server flags change isRead/isStarred only, and the thread's aggregates follow")
    func serverFlags() async throws {
        try await store.add(0..<2) { $0.threadId = "T" }
        let before = try #require(try await store.emails.getEmails(threadId: "T").first)
        let changed = try await sync.applyServerFlags(folderId: inbox.id, [
            ServerFlags(uid: 1, isRead: true, isStarred: true), ServerFlags(uid: 2, isRead: false, isStarred: false),
            ServerFlags(uid: 77, isRead: true, isStarred: false),
        ])
        #expect(changed == 1)
        let after = try #require(try await store.emails.getEmail(id: before.id))
        #expect(after.isRead && after.isStarred)
        var expected = before
        expected.isRead = true
        expected.isStarred = true
        #expect(after == expected)
        let thread = try #require(try await store.emails.getThread(id: "T"))
        #expect(thread.unreadCount == 1)
        #expect(thread.isStarred)
    }

    @Test("AC-F-06b: an expunged link goes; an email with no link left is deleted; aggregates refreshed")
    func expunge() async throws {
        try await store.add(0..<2, in: [.inbox]) { $0.threadId = "T" }
        try await store.add([5], in: [.inbox, .archive]) { $0.threadId = "U" }
        #expect(try await sync.removeLinks(folderId: inbox.id, uids: [1, 6], keepingOrphans: false).count == 2)
        #expect(try await store.emails.getEmails(threadId: "T").map(\.subject) == ["Message 1"])
        #expect(try await store.emails.getThread(id: "T")?.messageCount == 1)
        let kept = try #require(try await store.emails.getEmails(threadId: "U").first)
        #expect(kept.folderTypes == [.archive])
        // A whole-account sync keeps the orphan until every folder was seen.
        let orphans = try await sync.removeLinks(folderId: inbox.id, uids: [2], keepingOrphans: true)
        #expect(try await store.emails.getThread(id: "T")?.messageCount == 1)
        #expect(try await sync.deleteEmailsWithoutLinks(among: orphans + [kept.id]) == 1)
        #expect(try await store.emails.getThread(id: "T") == nil)
        try expectNoDrift()
    }

    @Test("AC-F-06: re-threading merges conversations; the emptied thread is deleted and triggers stay right")
    func rethread() async throws {
        try await store.add(0..<2, in: [.inbox]) { $0.threadId = "A" }
        try await store.add([3], in: [.inbox, .archive]) { $0.threadId = "B" }
        let moving = MailFixtures.email(accountId: "acct-work", number: 3).id
        try await sync.storeSyncBatch(SyncBatch(folderId: inbox.id, threadChanges: [ThreadChange(emailId: moving, threadId: "A")]))
        #expect(try await store.emails.getThread(id: "B") == nil)
        #expect(try await store.emails.getThread(id: "A")?.messageCount == 3)
        try await sync.storeSyncBatch(SyncBatch(folderId: inbox.id, threadChanges: [ThreadChange(emailId: moving, threadId: "C-new")]))
        #expect(try await store.emails.getThread(id: "C-new")?.messageCount == 1)
        try expectNoDrift()
    }

    @Test("E-03: a reset keeps the emails but forgets the UIDs; unconfirmed links are dropped after the re-sync")
    func uidValidityReset() async throws {
        try await store.add(0..<3, in: [.inbox])
        try await store.add([7], in: [.inbox, .archive])
        try await sync.updateSyncState(folderId: inbox.id, FolderSyncState(uidValidity: 5, lastSyncedUID: 8, highestModSeq: 40, lastSyncDate: Date()))
        try await sync.resetFolder(id: inbox.id, uidValidity: 6)
        #expect(try await sync.uidMap(folderId: inbox.id).isEmpty)
        let folder = try #require(try await store.emails.getFolder(id: inbox.id))
        #expect(folder.syncState == FolderSyncState(uidValidity: 6))
        // The re-sync finds two of them again under new UIDs.
        let refound = [0, 7].map { MailFixtures.incoming(MailFixtures.email(accountId: "acct-work", number: $0), in: [inbox], uid: UInt32(100 + $0)) }
        #expect(try await sync.storeSyncBatch(SyncBatch(folderId: inbox.id, emails: refound)).isEmpty)
        #expect(try await sync.removeUnconfirmedLinks(folderId: inbox.id) == 2)
        #expect(try await sync.uidMap(folderId: inbox.id).keys.sorted() == [100, 107])
        #expect(try store.database.rowCounts()["email"] == 2)  // 1 and 2 gone; 0 and 7 re-linked
        try expectNoDrift()
    }

    @Test("E-01: a sync batch and its checkpoint are stored together")
    func batchWithCheckpoint() async throws {
        let emails = (0..<3).map { MailFixtures.incoming(MailFixtures.email(accountId: "acct-work", number: $0), in: [inbox], uid: UInt32($0 + 1)) }
        let checkpoint = FolderSyncState(uidValidity: 9, lastSyncedUID: 3)
        let stored = try await sync.storeSyncBatch(SyncBatch(folderId: inbox.id, emails: emails, checkpoint: checkpoint))
        #expect(stored.count == 3)
        #expect(try await store.emails.getFolder(id: inbox.id)?.syncState == checkpoint)
        // A batch whose checkpoint names a folder that does not exist stores nothing.
        let more = [MailFixtures.incoming(MailFixtures.email(accountId: "acct-work", number: 9), in: [inbox], uid: 10)]
        await #expect(throws: RepositoryError.folderNotFound(id: "ghost")) {
            try await sync.storeSyncBatch(SyncBatch(folderId: "ghost", emails: more, checkpoint: checkpoint))
        }
        #expect(try store.database.rowCounts()["email"] == 3)
    }

    @Test("Folders: add keeps sync state, rename keeps links and state under the new path's id, delete drops orphans")
    func folders() async throws {
        try await store.add(0..<2, in: [.archive])
        try await store.add([5], in: [.archive, .inbox])
        try await sync.updateSyncState(folderId: archive.id, FolderSyncState(uidValidity: 77, lastSyncedUID: 6))
        var renamedList = archive
        renamedList.name = "Old name"
        renamedList.uidValidity = nil
        try await sync.addOrUpdateFolders([renamedList])
        #expect(try await store.emails.getFolder(id: archive.id)?.uidValidity == 77)
        #expect(try await store.emails.getFolder(id: archive.id)?.name == "Old name")

        let newId = try await sync.renameFolder(id: archive.id, toPath: "Archives/2026", name: "2026")
        #expect(newId == Folder.stableID(accountId: "acct-work", path: "Archives/2026"))
        #expect(try await store.emails.getFolder(id: archive.id) == nil)
        let renamed = try #require(try await store.emails.getFolder(id: newId))
        #expect(renamed.path == "Archives/2026")
        #expect(renamed.uidValidity == 77)
        #expect(try await sync.uidMap(folderId: newId).count == 3)
        #expect(try await store.emails.getThreads(folderId: newId, category: nil, cursor: nil, limit: 10).threads.count == 3)
        try expectNoDrift()

        try await sync.deleteFolders(ids: [newId])
        #expect(try store.database.rowCounts()["email"] == 1)  // number 5 is still in the inbox
        #expect(try store.database.rowCounts()["folder"] == 6)
        try expectNoDrift()
    }

    @Test("AC-F-06: threading facts reach every stored conversation a new message mentions, both ways")
    func threadingFacts() async throws {
        try await store.add([1]) { $0.threadId = "P" }  // a parent
        try await store.add([2]) { email in  // a reply to a message not stored yet
            email.threadId = "Q"
            email.inReplyTo = "<late@example.com>"
            email.references = "<root@example.com> <late@example.com>"
        }
        try await store.add([3]) { $0.threadId = "Q" }
        try await store.add([4]) { $0.threadId = "R" }
        let facts = try await sync.threadingFacts(accountId: "acct-work", mentioning: ["<msg-1@example.com>", "<late@example.com>"])
        #expect(Set(facts.map(\.threadId)) == ["P", "Q"])
        #expect(facts.count == 3)
        let reply = try #require(facts.first { $0.messageId == "<msg-2@example.com>" })
        #expect(reply.references == ["<root@example.com>", "<late@example.com>"])
        #expect(reply.inReplyTo == "<late@example.com>")
        #expect(try await sync.threadingFacts(accountId: "acct-other", mentioning: ["<late@example.com>"]).isEmpty)
    }

    @Test("setLinkUIDs records COPYUID results, adding a missing link and clearing a stale holder of the UID")
    func linkUIDs() async throws {
        let emails = try await store.add(0..<2, in: [.inbox])
        try await sync.setLinkUIDs([
            EmailFolder(emailId: emails[0].id, folderId: archive.id, uid: 40),
            EmailFolder(emailId: emails[1].id, folderId: inbox.id, uid: 1),
        ])
        #expect(try await sync.uidMap(folderId: archive.id) == [40: emails[0].id])
        #expect(try await sync.uidMap(folderId: inbox.id) == [1: emails[1].id])
        let links = try await sync.links(emailIds: [emails[0].id])
        #expect(Set(links.map(\.folderId)) == [inbox.id, archive.id])
        try expectNoDrift()
    }

    @Test("Migration v3 indexes the msg-ids of emails stored before it")
    func migrationIndexesExistingEmails() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v2-notification-decisions")
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO account(\(Account.columns)) VALUES (\(placeholders(16)))",
                           arguments: MailFixtures.account().databaseArguments)
            var email = MailFixtures.email(accountId: "acct-work", number: 1)
            email.references = "<a@x> <b@x>"
            email.inReplyTo = "<b@x>"
            try db.execute(sql: "INSERT INTO thread(id, accountId, subject, latestDate) VALUES (?, 'acct-work', 's', 0)", arguments: [email.threadId])
            try db.execute(sql: "INSERT INTO email(\(Email.columns)) VALUES (\(placeholders(25)))", arguments: email.databaseArguments)
        }
        try AppDatabase.migrator.migrate(queue)
        let ids = try await queue.read { db in try String.fetchAll(db, sql: "SELECT messageId FROM messageReference ORDER BY messageId") }
        #expect(ids == ["<a@x>", "<b@x>", "<msg-1@example.com>"])
    }
}
