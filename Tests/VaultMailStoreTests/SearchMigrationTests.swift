import Foundation
import GRDB
import Testing
import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

@Suite("Search index migration (issue 14)")
struct SearchMigrationTests {
    @Test("The v6 migration indexes a store's existing mail, keeps every email, and reports progress")
    func migratesExistingStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-migration-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("store.sqlite").path
        let pool = try DatabasePool(path: path)
        try AppDatabase.migrator.migrate(pool, upTo: "v5-unread-threads")
        let account = MailFixtures.account()
        let folder = MailFixtures.standardFolders(accountId: account.id)[0]
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO account(\(Account.columns)) VALUES (\(placeholders(16)))", arguments: account.databaseArguments)
            // A v5 folder has no historyWindowDays (added by v8).
            try db.execute(sql: "INSERT INTO folder(id, accountId, name, path, folderType) VALUES (?, ?, ?, ?, ?)",
                           arguments: [folder.id, folder.accountId, folder.name, folder.path, folder.folderType.rawValue])
            for number in 0..<2_345 {
                var email = MailFixtures.email(accountId: account.id, number: number)
                email.bodyPlain = number == 7 ? "Привет, the needle is here" : "hay \(number)"
                try db.execute(sql: "INSERT OR IGNORE INTO thread(id, accountId, subject, latestDate) VALUES (?, ?, ?, ?)",
                               arguments: [email.threadId, account.id, email.subject, email.dateReceived.millis])
                try db.execute(sql: "INSERT INTO email(\(Email.columns)) VALUES (\(placeholders(25)))", arguments: email.databaseArguments)
                try db.execute(sql: "INSERT INTO emailFolder(emailId, folderId, uid) VALUES (?, ?, ?)", arguments: [email.id, folder.id, number + 1])
            }
        }
        try pool.close()

        let reports = ProgressLog()
        let database = try AppDatabase.open(path: path) { indexed, total in reports.append(indexed, total) }
        #expect(reports.values.last.map { $0 == (2_345, 2_345) } == true)
        #expect(reports.values.count == 3, "batches of 1,000")
        #expect(try database.rowCounts()["email"] == 2_345)
        #expect(try database.rowCounts()["searchDocument"] == 2_345)
        let search = GRDBMailSearch(database: database)
        let query = try SearchQuery.parse("needle привет", now: Date(), timeZone: .current)
        let hits = try await search.searchMessages(query, options: SearchOptions())
        #expect(hits.hits.map(\.email.subject) == ["Message 7"])
        #expect(try await search.count(SearchQuery.parse("hay", now: Date(), timeZone: .current), messages: true) == 2_344)
    }
}

/// Progress reports, collected from the migration's callback.
final class ProgressLog: @unchecked Sendable {
    // @unchecked: `reports` is only touched under `lock`.
    private let lock = NSLock()
    private var reports: [(Int, Int)] = []

    func append(_ indexed: Int, _ total: Int) { lock.withLock { reports.append((indexed, total)) } }
    var values: [(Int, Int)] { lock.withLock { reports } }
}
