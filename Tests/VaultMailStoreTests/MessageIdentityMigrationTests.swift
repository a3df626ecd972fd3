import Foundation
import GRDB
import Testing
import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

@Suite("Message identity in the store (issue 17)")
struct MessageIdentityMigrationTests {
    static let account = MailFixtures.account()
    static let folders = MailFixtures.standardFolders(accountId: account.id)
    static var inbox: Folder { folders[0] }
    static var archive: Folder { folders[5] }

    /// A store at the schema before message identity (`v9-summaries`), at `path`, holding:
    /// a synced email linked to INBOX (UID 7) and Archive (UID 3), with one attachment; an
    /// email sent from here (`sendState = sent`) linked to Sent; an unlinked local draft.
    static func makeOldStore(at path: String) async throws -> (synced: Email, sent: Email, draft: Email) {
        let pool = try DatabasePool(path: path)
        try AppDatabase.migrator.migrate(pool, upTo: "v9-summaries")
        let synced = {
            var email = MailFixtures.email(accountId: account.id, number: 1, threadId: "T1")
            email.dateSent = MailFixtures.referenceDate
            email.bodyHTML = "<p>Body</p>"
            return email
        }()
        let attachment = Attachment(emailId: synced.id, filename: "a.pdf", mimeType: "application/pdf", sizeBytes: 4321, partId: "2")
        let sent = MailFixtures.email(accountId: account.id, number: 2, threadId: "T2", sendState: .sent)
        let draft = MailFixtures.email(accountId: account.id, number: 3, threadId: "T3", sendState: .draft)
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO account(\(Account.columns)) VALUES (\(placeholders(16)))", arguments: account.databaseArguments)
            for folder in folders {
                try db.execute(sql: "INSERT INTO folder(\(Folder.columns)) VALUES (\(placeholders(12)))", arguments: folder.databaseArguments)
            }
            _ = try db.saveEmails([
                IncomingEmail(
                    email: synced,
                    links: [EmailFolder(emailId: synced.id, folderId: inbox.id, uid: 7), EmailFolder(emailId: synced.id, folderId: archive.id, uid: 3)],
                    attachments: [attachment]),
                IncomingEmail(email: sent, links: [EmailFolder(emailId: sent.id, folderId: folders[1].id, uid: nil)]),
                IncomingEmail(email: draft, links: []),
            ])
        }
        try pool.close()
        return (synced, sent, draft)
    }

    static func expectNoDrift(_ database: AppDatabase) throws {
        let drift = try database.membershipDrift()
        #expect(drift.threadFolder == 0)
        #expect(drift.inboxLinks == 0)
    }

    static func withStorePath(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identity-migration-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await body(directory.appendingPathComponent("store.sqlite").path)
    }

    @Test("v10: synced emails get the fingerprint of their stored fields; compose and outbox emails stay unknown; folders with UID links are to be checked")
    func migratesStore() async throws {
        try await Self.withStorePath { path in
            let (synced, sent, draft) = try await Self.makeOldStore(at: path)
            let database = try AppDatabase.open(path: path)
            let sync = GRDBSyncRepository(database: database)

            let fingerprints = try await database.writer.read { db in
                try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, contentFingerprint FROM email").map {
                    ($0["id"] as String, $0["contentFingerprint"] as String?)
                })
            }
            let expected = EmailIdentity.fingerprint(of: synced, attachmentSizes: [4321])
            #expect(fingerprints[synced.id] == .some(expected))
            #expect(fingerprints[sent.id] == .some(nil))
            #expect(fingerprints[draft.id] == .some(nil))

            let identities = try await sync.emailIdentities(accountId: Self.account.id, messageIds: [synced.messageId, sent.messageId, "<none@x>"])
            #expect(Set(identities) == [
                EmailIdentity(emailId: synced.id, messageId: synced.messageId, contentFingerprint: expected, sizeBytes: 2048, dateReceived: synced.dateReceived),
                EmailIdentity(emailId: sent.id, messageId: sent.messageId, contentFingerprint: nil, sizeBytes: 2048, dateReceived: sent.dateReceived),
            ])

            // INBOX and Archive held UID links: each is checked once; Sent (no UID) and the rest are not.
            let inboxLinks = try #require(try await sync.pendingIdentityCheck(folderId: Self.inbox.id))
            #expect(inboxLinks.keys.sorted() == [7])
            #expect(inboxLinks[7]?.emailId == synced.id)
            #expect(inboxLinks[7]?.contentFingerprint == expected)
            #expect(try await sync.pendingIdentityCheck(folderId: Self.archive.id)?.keys.sorted() == [3])
            for folder in Self.folders.dropFirst() where folder.id != Self.archive.id {
                #expect(try await sync.pendingIdentityCheck(folderId: folder.id) == nil, "\(folder.path)")
            }
            try Self.expectNoDrift(database)
        }
    }

    @Test("The production migrator on an empty store: nothing is to be checked, and new synced emails get their fingerprint")
    func freshStore() async throws {
        let store = try await StoreFixture()
        let sync = GRDBSyncRepository(database: store.database)
        #expect(try await sync.pendingIdentityCheck(folderId: store.folder(.inbox).id) == nil)
        var email = MailFixtures.email(accountId: "acct-work", number: 5)
        email.threadId = "T"
        let attachment = Attachment(emailId: email.id, filename: "x.txt", mimeType: "text/plain", sizeBytes: 12, partId: "2")
        try await sync.storeSyncBatch(SyncBatch(folderId: store.folder(.inbox).id, emails: [
            IncomingEmail(email: email, links: [EmailFolder(emailId: email.id, folderId: store.folder(.inbox).id, uid: 1)], attachments: [attachment]),
        ]))
        let identities = try await sync.emailIdentities(accountId: "acct-work", messageIds: [email.messageId])
        #expect(identities.map(\.contentFingerprint) == [EmailIdentity.fingerprint(of: email, attachmentSizes: [12])])
    }

    @Test("A UID stored for one email and then given to another in a sync batch leaves the first email's link, unconfirmed; finishing the check drops it")
    func uidMovesToAnotherEmail() async throws {
        try await Self.withStorePath { path in
            let (synced, _, _) = try await Self.makeOldStore(at: path)
            let database = try AppDatabase.open(path: path)
            let sync = GRDBSyncRepository(database: database)
            let emails = GRDBEmailRepository(database: database)
            // The message at INBOX UID 7 turns out to be another one with the same Message-ID.
            var other = synced
            other.id = Email.stableID(accountId: Self.account.id, messageId: synced.messageId, contentFingerprint: "other")
            other.subject = "Another message"
            try await sync.storeSyncBatch(SyncBatch(folderId: Self.inbox.id, emails: [
                IncomingEmail(email: other, links: [EmailFolder(emailId: other.id, folderId: Self.inbox.id, uid: 7)]),
            ]))
            #expect(try await sync.uidMap(folderId: Self.inbox.id) == [7: other.id])
            #expect(try await sync.links(emailIds: [synced.id]).contains(EmailFolder(emailId: synced.id, folderId: Self.inbox.id, uid: nil)))

            let dropped = try await sync.finishIdentityCheck(folderId: Self.inbox.id, droppingUnconfirmed: [synced.id, other.id], keepingOrphans: false)
            #expect(dropped == [synced.id], "only the unconfirmed link goes")
            #expect(try await sync.pendingIdentityCheck(folderId: Self.inbox.id) == nil)
            #expect(try await sync.links(emailIds: [synced.id]) == [EmailFolder(emailId: synced.id, folderId: Self.archive.id, uid: 3)])
            #expect(try await emails.getEmail(id: synced.id) != nil, "still in Archive")
            #expect(try await emails.getEmail(id: other.id)?.subject == "Another message")
            try Self.expectNoDrift(database)

            // The Archive link is the email's last: dropping it deletes the email.
            try await sync.storeSyncBatch(SyncBatch(folderId: Self.archive.id, emails: [
                IncomingEmail(email: other, links: [EmailFolder(emailId: other.id, folderId: Self.archive.id, uid: 3)]),
            ]))
            #expect(try await sync.finishIdentityCheck(folderId: Self.archive.id, droppingUnconfirmed: [synced.id], keepingOrphans: false) == [synced.id])
            #expect(try await emails.getEmail(id: synced.id) == nil)
            try Self.expectNoDrift(database)
        }
    }

    @Test("A pending check follows a renamed folder and ends with a UIDVALIDITY reset")
    func renameAndReset() async throws {
        try await Self.withStorePath { path in
            _ = try await Self.makeOldStore(at: path)
            let database = try AppDatabase.open(path: path)
            let sync = GRDBSyncRepository(database: database)
            let newId = try await sync.renameFolder(id: Self.archive.id, toPath: "Archive/2026", name: "2026")
            #expect(try await sync.pendingIdentityCheck(folderId: newId)?.keys.sorted() == [3])
            try await sync.resetFolder(id: newId, uidValidity: 99)
            #expect(try await sync.pendingIdentityCheck(folderId: newId) == nil)
        }
    }
}
