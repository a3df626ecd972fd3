import Foundation
import GRDB
import Testing
import VaultMailCore
@testable import VaultMailStore
import VaultMailTesting

@Suite("Sync window migration (issue 17)")
struct SyncWindowMigrationTests {
    @Test("v8: a folder whose first sync finished is complete for its account's window; one still in its first sync is not")
    func migratesFolders() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("window-migration-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("store.sqlite").path
        let pool = try DatabasePool(path: path)
        try AppDatabase.migrator.migrate(pool, upTo: "v7-ai")
        let account = {
            var account = MailFixtures.account()
            account.syncWindowDays = 90
            return account
        }()
        let folders = MailFixtures.standardFolders(accountId: account.id)
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO account(\(Account.columns)) VALUES (\(placeholders(16)))", arguments: account.databaseArguments)
            for (index, folder) in folders.prefix(2).enumerated() {
                try db.execute(sql: """
                    INSERT INTO folder(id, accountId, name, path, folderType, lastSyncedUID, lastSyncDate) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [folder.id, folder.accountId, folder.name, folder.path, folder.folderType.rawValue,
                                     40, index == 0 ? Date().millis : nil])
            }
        }
        try pool.close()

        let database = try AppDatabase.open(path: path)
        let migrated = try await GRDBEmailRepository(database: database).getFolders(accountId: account.id)
        let byId = Dictionary(uniqueKeysWithValues: migrated.map { ($0.id, $0) })
        #expect(byId[folders[0].id]?.historyWindowDays == 90)
        #expect(byId[folders[1].id]?.historyWindowDays == nil)
        #expect(byId[folders[1].id]?.lastSyncedUID == 40)

        // The column round-trips through the sync state.
        var state = try #require(byId[folders[1].id]).syncState
        state.historyWindowDays = AppConstants.allMailSyncWindowDays
        try await GRDBSyncRepository(database: database).updateSyncState(folderId: folders[1].id, state)
        #expect(try await GRDBEmailRepository(database: database).getFolders(accountId: account.id)
            .first { $0.id == folders[1].id }?.historyWindowDays == AppConstants.allMailSyncWindowDays)
    }
}
