/// Where account secrets (passwords, OAuth2 tokens) are kept when the user hands them to
/// VaultMail: the Secret Service on Linux, the Keychain on Apple platforms. Never the
/// database, a file, a log or an error message (AC-F-03, AC-SEC-02).
public protocol CredentialStore: Sendable {
    /// Stores (or replaces) the account's secret.
    func storeSecret(_ secret: Secret, for account: Account) async throws
    /// The account's secret, or nil when none is stored.
    func secret(for account: Account) async throws -> Secret?
    /// Removes the account's secret; nothing happens when there is none.
    func deleteSecret(for account: Account) async throws
}
