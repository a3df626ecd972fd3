import Foundation

/// The application service for accounts (ARCHITECTURE.md, "The application layer"): adding,
/// changing and removing one, with its secret, its settings and its provider sign-in. The
/// `vaultmail` tool and the web app both ask it, so an account is named, stored and removed
/// the same way whichever door the request came by (issue 28).
///
/// - A name is letters, digits, '-', '_' and '.' (`validName`), unique among the accounts; a
///   CA certificate file is kept as a standardized path, and must be readable when added.
/// - A password goes to the keyring before the account is stored, and leaves it again when
///   storing fails; a password command is kept instead of a password.
/// - Removing (AC-SEC-03) deletes the account's mail, folders and rows, every setting kept for
///   it (`SettingsStore.forgetAccount`), its access token in memory, its secret in the keyring,
///   and revokes an OAuth2 sign-in at the provider (`OAuthRevocation`).
///
/// Checking the servers and the OAuth2 sign-in flow itself are the composition root's
/// (`AccountAdministration`); they store what they made through this service.
public struct Accounts: Sendable {
    private let repository: any AccountRepository
    private let credentials: any CredentialStore
    private let settings: SettingsStore
    private let revocation: OAuthRevocation
    private let accessTokens: OAuthAccessTokens?

    /// - Parameters:
    ///   - credentials: the keyring passwords and OAuth2 grants are kept in.
    ///   - revocation: how a removed account's OAuth2 sign-in is revoked.
    ///   - accessTokens: the access tokens held in memory, forgotten for a removed account.
    public init(repository: any AccountRepository, credentials: any CredentialStore, settings: SettingsStore,
                revocation: OAuthRevocation, accessTokens: OAuthAccessTokens? = nil) {
        self.repository = repository
        self.credentials = credentials
        self.settings = settings
        self.revocation = revocation
        self.accessTokens = accessTokens
    }

    // MARK: Reading

    public func all() async throws -> [Account] {
        try await repository.getAccounts()
    }

    /// The accounts mail is read and written from (not switched off), in the store's order.
    public func active() async throws -> [Account] {
        try await repository.getAccounts().filter(\.isActive)
    }

    public func account(id: String) async throws -> Account? {
        try await repository.getAccount(id: id)
    }

    public func account(named name: String) async throws -> Account? {
        try await repository.getAccount(named: name)
    }

    /// The account new mail is written from when none is chosen (AC-U-12: the composer from the
    /// unified inbox, `send` without `--account`): the one set as default, else the first of the
    /// active accounts; nil without one.
    public func defaultAccount() async throws -> Account? {
        let active = try await active()
        let chosen = await settings.defaultAccountId
        return active.first { $0.id == chosen } ?? active.first
    }

    /// Makes the account the default for new mail; throws `AccountError.notFound` for no such account.
    public func setDefault(accountId: String) async throws {
        guard let account = try await repository.getAccount(id: accountId) else { throw AccountError.notFound(id: accountId) }
        await MainActor.run { settings.defaultAccountId = account.id }
    }

    /// The account's signature, if it has one.
    public func signature(of accountId: String) async -> String? {
        await settings.signatures[accountId]
    }

    /// Every account's signature, by account id.
    public func signatures() async -> [String: String] {
        await settings.signatures
    }

    // MARK: Adding and changing

    /// The one rule for account names: trimmed, not empty, only letters, digits, '-', '_' and
    /// '.' (a name is typed on the command line and shown in the sidebar).
    public static func validName(_ name: String) throws(AccountError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw .invalidName(trimmed)
        }
        return trimmed
    }

    /// Throws when `account` cannot be added as it is: its name (`validName`, not taken), its
    /// address, its sync window. Checked before anything is stored or a sign-in begins.
    /// Returns the account as it would be stored (its name trimmed).
    @discardableResult
    public func checkNew(_ account: Account) async throws -> Account {
        let account = try checked(account)
        if let caFile = account.caFile, !FileManager.default.isReadableFile(atPath: caFile) { throw AccountError.unreadableCAFile(caFile) }
        if try await repository.getAccount(named: account.name) != nil { throw AccountError.nameTaken(account.name) }
        return account
    }

    /// Stores a checked new account. A `.password` goes to the keyring first; with nil, the
    /// account's secret is its command's output or already in the keyring (an OAuth2 sign-in),
    /// and is removed from there again when the account cannot be stored. Returns the account
    /// as stored.
    @discardableResult
    public func add(_ account: Account, secret: AccountSecret?) async throws -> Account {
        var account = try await checkNew(account)
        if let secret { account = account.signingIn(with: secret) }
        if case .password(let password)? = secret {
            guard !password.isEmpty else { throw AccountError.emptyPassword }
            do {
                try await credentials.storeSecret(password, for: account)
            } catch {
                throw AccountError.keyringUnavailable(email: account.email, reason: "\(error)")
            }
        }
        do {
            try await repository.addAccount(account)
        } catch {
            if account.credentialCommand == nil { try? await credentials.deleteSecret(for: account) }
            throw error
        }
        return account
    }

    /// Changes an account's name, display name, sync window or servers (its secret stays).
    public func update(_ account: Account) async throws {
        let account = try checked(account)
        if let other = try await repository.getAccount(named: account.name), other.id != account.id {
            throw AccountError.nameTaken(account.name)
        }
        guard try await repository.getAccount(id: account.id) != nil else { throw AccountError.notFound(id: account.id) }
        try await repository.updateAccount(account)
    }

    /// Sets (or, empty, removes) the account's signature.
    public func setSignature(_ text: String, for accountId: String) async throws {
        guard try await repository.getAccount(id: accountId) != nil else { throw AccountError.notFound(id: accountId) }
        await settings.setSignature(text, for: accountId)
        if let error = await settings.lastPersistenceError { throw SettingsError.notSaved("\(error)") }
    }

    private func checked(_ account: Account) throws -> Account {
        var account = account
        account.name = try Self.validName(account.name)
        account.caFile = account.caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        try EmailAddress.validate(account.email, field: "the email address")
        guard (1...AppConstants.allMailSyncWindowDays).contains(account.syncWindowDays) else {
            throw AccountError.invalidSyncWindow(account.syncWindowDays)
        }
        return account
    }

    // MARK: Removing

    /// Removes the account and everything kept for it (AC-SEC-03). Its data and settings go
    /// first (what the person asked for); a keyring that refuses is reported in the result,
    /// not thrown, with the command that removes the entry by hand.
    public func remove(accountId: String) async throws -> AccountRemoval {
        guard let account = try await repository.getAccount(id: accountId) else { throw AccountError.notFound(id: accountId) }
        let keptSecret = account.credentialCommand == nil
        // Read before the keyring entry goes: the refresh token to revoke.
        let grant = keptSecret && account.authMethod == .oauth2 ? try? await credentials.secret(for: account) : nil
        try await repository.removeAccount(id: accountId)
        await settings.forgetAccount(accountId)
        await accessTokens?.forget(accountId: accountId)
        let revoked: AccountRemoval.Revocation = if let grant { await revocation.revoke(secret: grant) } else { .notApplicable }
        var keyring = AccountRemoval.Keyring.nothingKept
        if keptSecret {
            do {
                try await credentials.deleteSecret(for: account)
                keyring = .removed
            } catch {
                keyring = .failed("\(error)")
            }
        }
        return AccountRemoval(account: account, keyring: keyring, revocation: revoked)
    }
}
