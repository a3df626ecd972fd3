import Foundation
import GRDB
import VaultMailCore

/// `SettingsStorage` in the store's `setting` and `accountSetting` tables. Each write is its
/// own committed transaction, so it is durable when the call returns; per-account values
/// go with their account.
public struct GRDBSettingsStorage: SettingsStorage {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func value(forKey key: String) throws -> Data? {
        try database.writer.read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
        }
    }

    public func setValue(_ value: Data?, forKey key: String) throws {
        try database.writer.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO setting(key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
            }
        }
    }

    public func accountValues(forKey key: String) throws -> [String: Data] {
        try database.writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT accountId, value FROM accountSetting WHERE key = ?", arguments: [key])
            return Dictionary(rows.map { ($0["accountId"] as String, $0["value"] as Data) }, uniquingKeysWith: { $1 })
        }
    }

    public func setAccountValue(_ value: Data?, forKey key: String, accountId: String) throws {
        try database.writer.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO accountSetting(accountId, key, value) VALUES (?, ?, ?)",
                               arguments: [accountId, key, value])
            } else {
                try db.execute(sql: "DELETE FROM accountSetting WHERE accountId = ? AND key = ?", arguments: [accountId, key])
            }
        }
    }

    public func removeAll() throws {
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM setting; DELETE FROM accountSetting;")
        }
    }
}
