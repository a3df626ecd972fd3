import Foundation
import GRDB
import Testing
import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

@Suite("List headers kept per email for unsubscribe and Subscriptions (issue 33)")
struct SubscriptionsMigrationTests {
    static let account = MailFixtures.account()
    static let folders = MailFixtures.standardFolders(accountId: account.id)

    @Test("v14: the list headers of mail stored before it are read from the stored sources; mail without them gets no row")
    func backfillsFromStoredSources() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("subscriptions-migration-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("store.sqlite").path

        let pool = try DatabasePool(path: path)
        try AppDatabase.migrator.migrate(pool, upTo: "v13-pending-changes")
        let newsletter = MailFixtures.email(accountId: Self.account.id, number: 1, from: "news@news.example.com")
        let person = MailFixtures.email(accountId: Self.account.id, number: 2, from: "grace@example.org")
        let sources = [
            newsletter.id: "From: Example News <news@news.example.com>\r\nList-Id: \"Example News\" <News.Example.com>\r\n"
                + "List-Unsubscribe: <mailto:off@news.example.com>,\r\n <https://news.example.com/u/1>\r\n"
                + "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\nSubject: Weekly\r\n\r\nBody\r\n",
            person.id: "From: Grace <grace@example.org>\r\nSubject: Lunch\r\n\r\nList-Unsubscribe: <mailto:not-a-header@example.org>\r\n",
        ]
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO account(\(Account.columns)) VALUES (\(placeholders(16)))", arguments: Self.account.databaseArguments)
            for folder in Self.folders {
                try db.execute(sql: "INSERT INTO folder(\(Folder.columns)) VALUES (\(placeholders(12)))", arguments: folder.databaseArguments)
            }
            // Saved without their sources (v13 has no list headers table), then the sources as v13 kept them.
            _ = try db.saveEmails([newsletter, person].map { IncomingEmail(email: $0, links: [EmailFolder(emailId: $0.id, folderId: Self.folders[0].id, uid: nil)]) })
            for email in [newsletter, person] {
                try db.execute(sql: "INSERT INTO emailSource(emailId, raw) VALUES (?, ?)", arguments: [email.id, Data(sources[email.id]!.utf8)])
            }
        }
        try pool.close()

        let database = try AppDatabase.open(path: path)
        let repository = GRDBSubscriptionRepository(database: database)
        let headers = try #require(try await repository.listHeaders(emailId: newsletter.id))
        #expect(headers == ListHeaders(listId: "news.example.com", listName: "Example News",
                                       listUnsubscribe: "<mailto:off@news.example.com>, <https://news.example.com/u/1>",
                                       listUnsubscribePost: "List-Unsubscribe=One-Click"))
        #expect(headers.method == .oneClick(URL(string: "https://news.example.com/u/1")!))
        // A line in the body that looks like a header is not one.
        #expect(try await repository.listHeaders(emailId: person.id) == nil)
    }
}
