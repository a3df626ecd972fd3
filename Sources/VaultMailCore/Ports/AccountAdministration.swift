/// Adding, checking, changing and removing accounts, with their secrets (AC-U-12…14, AC-F-03,
/// AC-SEC-03). The web app's onboarding and account settings go through it; the composition
/// root implements it over the store, the Secret Service and the mail servers.
public protocol AccountAdministration: Sendable {
    /// Tries the account's IMAP and SMTP servers with the secret: connection, certificate, login.
    func check(_ account: Account, secret: AccountSecret) async -> ConnectionCheck
    /// Stores the account; a password goes to the Secret Service first (throws, saying what to
    /// do instead, when none runs).
    func add(_ account: Account, secret: AccountSecret) async throws
    /// Changes an account's name, display name, sync window or servers (its secret stays).
    func update(_ account: Account) async throws
    /// Deletes the account, all its mail and settings, and its password. Returns a warning when
    /// something could not be removed (the keyring entry).
    func remove(accountId: String) async throws -> String?
}
