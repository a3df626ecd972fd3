import Foundation
import GRDB
import VaultMailCore

/// What the store holds (Settings → Storage, issue 31): per account its messages' sources,
/// attachments and vectors; the search index's pages (SQLite's `dbstat`, one b-tree at a time);
/// the database's files.
public struct GRDBStoreUsage: StoreUsageReading {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func storeUsage() async throws -> StoreUsage {
        let path = database.writer.path
        let (accounts, index) = try await database.writer.read { db in
            var usage: [String: AccountStoreUsage] = [:]
            // length() of a BLOB reads its size, not its pages.
            for row in try Row.fetchAll(db, sql: """
                SELECT e.accountId AS id, COUNT(*) AS messages, COALESCE(SUM(length(s.raw)), 0) AS bytes
                FROM email e LEFT JOIN emailSource s ON s.emailId = e.id GROUP BY e.accountId
                """) {
                usage[row["id"]] = AccountStoreUsage(accountId: row["id"], messages: row["messages"], mailBytes: row["bytes"],
                                                     attachmentBytes: 0, vectorBytes: 0)
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT e.accountId AS id, SUM(a.sizeBytes) AS bytes FROM attachment a JOIN email e ON e.id = a.emailId GROUP BY e.accountId
                """) {
                usage[row["id"]]?.attachmentBytes = row["bytes"]
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT e.accountId AS id, SUM(length(v.vector)) AS bytes FROM emailEmbedding v JOIN email e ON e.id = v.emailId GROUP BY e.accountId
                """) {
                usage[row["id"]]?.vectorBytes = row["bytes"]
            }
            // The search index: the two FTS5 tables' shadow tables and the document table with its indexes.
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND rootpage > 0
                AND (name LIKE 'emailSearch\\_%' ESCAPE '\\' OR name LIKE 'emailFieldSearch\\_%' ESCAPE '\\' OR tbl_name = 'searchDocument')
                """)
            var index = 0
            for name in names {
                index += try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = ? AND aggregate = TRUE",
                                          arguments: [name]) ?? 0
            }
            return (usage.values.sorted { $0.accountId < $1.accountId }, index)
        }
        let files = [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
        }
        return StoreUsage(accounts: accounts, searchIndexBytes: index, fileBytes: files)
    }
}
