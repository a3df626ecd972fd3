import Foundation
import VaultMailStore

/// When each account was last signed in again (`vaultmail account reauth`), kept in the store's
/// settings (a per-account value, gone with the account), so a running daemon, which sees the
/// tool's commit, tries the account again at once instead of waiting out its backoff (issue 34).
enum SignedInAgain {
    static let key = "account.signedInAgainAt"

    /// Records that `accountId` was signed in again now.
    static func record(accountId: String, at date: Date = Date(), in storage: GRDBSettingsStorage) throws {
        try storage.setAccountValue(try JSONEncoder().encode(date), forKey: key, accountId: accountId)
    }

    /// Account id → when it was last signed in again.
    static func all(in storage: GRDBSettingsStorage) -> [String: Date] {
        let values = (try? storage.accountValues(forKey: key)) ?? [:]
        return values.compactMapValues { try? JSONDecoder().decode(Date.self, from: $0) }
    }
}
