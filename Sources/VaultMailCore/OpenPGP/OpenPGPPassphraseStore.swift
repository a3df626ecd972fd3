/// Where the passphrase that protects each account's OpenPGP secret key is kept (issue 32): the
/// Secret Service on Linux (`SecretServiceCredentialStore` under its own application name), so
/// the key in VaultMail's data directory is useless without the user's unlocked keyring. Never
/// the store, a file, a log or a command line.
public protocol OpenPGPPassphraseStore: Sendable {
    /// The passphrase of the account's secret key, or nil when none is stored.
    func passphrase(accountId: String) async throws -> Secret?
    /// Stores (or replaces) it; `label` names the account for the keyring's own viewer.
    func storePassphrase(_ passphrase: Secret, accountId: String, label: String) async throws
    /// Removes it; nothing happens when there is none.
    func deletePassphrase(accountId: String) async throws
}
