import Foundation
import GRDB
import Testing
import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

@Suite("Drafts are not a conversation's messages (issue 29)")
struct DraftCountMigrationTests {
    static let account = MailFixtures.account()
    static let folders = MailFixtures.standardFolders(accountId: account.id)

    @Test("v12: a store whose threads counted their drafts is recounted: the messages' count, date, snippet and senders")
    func recountsThreadsWithDrafts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("draft-migration-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("store.sqlite").path

        // A store at v11: "T1" holds two received messages and a reply draft, counted as 3
        // (as the aggregates counted before issue 29); "T2" holds a lone new-message draft.
        let pool = try DatabasePool(path: path)
        try AppDatabase.migrator.migrate(pool, upTo: "v11-chunk-embeddings")
        let first = MailFixtures.email(accountId: Self.account.id, number: 1, threadId: "T1", from: "grace@example.org", isRead: true)
        let second = MailFixtures.email(accountId: Self.account.id, number: 2, threadId: "T1", from: "alan@example.org", isRead: true)
        let reply = {
            var email = MailFixtures.email(accountId: Self.account.id, number: 3, threadId: "T1", from: Self.account.email, sendState: .draft,
                                           snippet: "My unsent answer")
            email.isDraft = true
            return email
        }()
        let lone = MailFixtures.email(accountId: Self.account.id, number: 4, threadId: "T2", from: Self.account.email, sendState: .draft)
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO account(\(Account.columns)) VALUES (\(placeholders(16)))", arguments: Self.account.databaseArguments)
            for folder in Self.folders {
                try db.execute(sql: "INSERT INTO folder(\(Folder.columns)) VALUES (\(placeholders(12)))", arguments: folder.databaseArguments)
            }
            _ = try db.saveEmails([first, second, reply, lone].map { IncomingEmail(email: $0, links: [EmailFolder(emailId: $0.id, folderId: Self.folders[0].id, uid: nil)]) })
            try db.execute(sql: "UPDATE thread SET messageCount = 3, snippet = 'My unsent answer', latestDate = ? WHERE id = 'T1'",
                           arguments: [reply.dateReceived.millis])
        }
        try pool.close()

        let database = try AppDatabase.open(path: path)
        let emails = GRDBEmailRepository(database: database)
        let thread = try #require(try await emails.getThread(id: "T1"))
        #expect(thread.messageCount == 2)
        #expect(thread.snippet == second.snippet && thread.latestDate == second.dateReceived)
        #expect(thread.participants?.contains(Self.account.email) == false, "the draft's sender among the thread's")
        #expect(try await emails.getThread(id: "T2")?.messageCount == 1, "a thread of one draft counts it")
    }
}
