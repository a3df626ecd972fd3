import VaultMailCore

/// A `CredentialStore` in memory, failing on demand.
public actor InMemoryCredentialStore: CredentialStore {
    /// What each account's secret reads, by account id (tests look inside).
    public private(set) var secrets: [String: String] = [:]
    public var failing = false

    public struct Failure: Error, CustomStringConvertible {
        public var description: String { "the keyring is locked" }
    }

    public init() {}

    public func setFailing(_ failing: Bool) { self.failing = failing }

    public func storeSecret(_ secret: Secret, for account: Account) async throws {
        if failing { throw Failure() }
        secrets[account.id] = secret.revealed
    }

    public func secret(for account: Account) async throws -> Secret? {
        if failing { throw Failure() }
        return secrets[account.id].map { Secret($0) }
    }

    public func deleteSecret(for account: Account) async throws {
        if failing { throw Failure() }
        secrets[account.id] = nil
    }
}
