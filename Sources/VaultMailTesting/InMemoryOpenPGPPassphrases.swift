import VaultMailCore

/// An `OpenPGPPassphraseStore` in memory, failing on demand (the keyring locked).
public actor InMemoryOpenPGPPassphrases: OpenPGPPassphraseStore {
    /// Each account's passphrase, by account id (tests look inside).
    public private(set) var passphrases: [String: String] = [:]
    public private(set) var failing = false

    public struct Failure: Error, CustomStringConvertible {
        public var description: String { "the keyring is locked" }
    }

    public init() {}

    public func setFailing(_ failing: Bool) { self.failing = failing }

    public func passphrase(accountId: String) async throws -> Secret? {
        if failing { throw Failure() }
        return passphrases[accountId].map { Secret($0) }
    }

    public func storePassphrase(_ passphrase: Secret, accountId: String, label: String) async throws {
        if failing { throw Failure() }
        passphrases[accountId] = passphrase.revealed
    }

    public func deletePassphrase(accountId: String) async throws {
        if failing { throw Failure() }
        passphrases[accountId] = nil
    }
}
