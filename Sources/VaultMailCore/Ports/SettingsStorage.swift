import Foundation

/// Where `SettingsStore` keeps its values: small JSON blobs by key, and per-account values
/// that disappear with their account. Writes are durable when the call returns.
public protocol SettingsStorage: Sendable {
    func value(forKey key: String) throws -> Data?
    func setValue(_ value: Data?, forKey key: String) throws
    /// Every account's value for `key`, by account id.
    func accountValues(forKey key: String) throws -> [String: Data]
    func setAccountValue(_ value: Data?, forKey key: String, accountId: String) throws
    /// Removes every global and per-account value.
    func removeAll() throws
}
