import Foundation
import GRDB
import VaultMailCore

/// `AccountRepository` over the SQLite store. Removing an account cascades to every row
/// that belongs to it (AC-F-09, AC-SEC-03).
public struct GRDBAccountRepository: AccountRepository {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func addAccount(_ account: Account) async throws {
        try await database.writer.write { db in
            do {
                try db.execute(sql: "INSERT INTO account(\(Account.columns)) VALUES (\(placeholders(16)))",
                               arguments: account.databaseArguments)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
                || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                throw RepositoryError.duplicateAccountName(account.name)
            }
        }
    }

    public func updateAccount(_ account: Account) async throws {
        try await database.writer.write { db in
            try db.execute(sql: """
                UPDATE account SET name = ?, email = ?, displayName = ?, imapHost = ?, imapPort = ?,
                    smtpHost = ?, smtpPort = ?, security = ?, username = ?, authMethod = ?,
                    credentialCommand = ?, caFile = ?, syncWindowDays = ?, isActive = ?, createdAt = ?
                WHERE id = ?
                """, arguments: [account.name, account.email, account.displayName, account.imapHost, account.imapPort,
                                 account.smtpHost, account.smtpPort, account.security.rawValue, account.username,
                                 account.authMethod.rawValue, account.credentialCommand, account.caFile,
                                 account.syncWindowDays, account.isActive, account.createdAt.millis, account.id])
            if db.changesCount == 0 { throw RepositoryError.accountNotFound(account.id) }
        }
    }

    public func removeAccount(id: String) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw RepositoryError.accountNotFound(id) }
        }
    }

    public func getAccounts() async throws -> [Account] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Account.columns) FROM account ORDER BY name").map(Account.init(row:))
        }
    }

    public func getAccount(id: String) async throws -> Account? {
        try await database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Account.columns) FROM account WHERE id = ?", arguments: [id])
                .map(Account.init(row:))
        }
    }

    public func getAccount(named name: String) async throws -> Account? {
        try await database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Account.columns) FROM account WHERE name = ?", arguments: [name])
                .map(Account.init(row:))
        }
    }
}
