import VaultMailCore

/// A `CredentialStore` in memory, failing on demand.
public actor InMemoryCredentialStore: CredentialStore {
    public private(set) var secrets: [String: String] = [:]
    public var failing = false

    public struct Failure: Error, CustomStringConvertible {
        public var description: String { "the keyring is locked" }
    }

    public init() {}

    public func setFailing(_ failing: Bool) { self.failing = failing }

    public func storeSecret(_ secret: String, for account: Account) async throws {
        if failing { throw Failure() }
        secrets[account.id] = secret
    }

    public func secret(for account: Account) async throws -> String? {
        if failing { throw Failure() }
        return secrets[account.id]
    }

    public func deleteSecret(for account: Account) async throws {
        if failing { throw Failure() }
        secrets[account.id] = nil
    }
}
