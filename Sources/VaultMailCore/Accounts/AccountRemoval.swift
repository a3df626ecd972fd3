/// What removing an account did (AC-SEC-03), in the words both doors show: its mail, folders
/// and settings are gone; its secret left the keyring (or could not); an OAuth2 sign-in was
/// revoked at the provider (or could not be).
public struct AccountRemoval: Sendable, Equatable {
    /// What happened to the account's secret in the keyring.
    public enum Keyring: Sendable, Equatable {
        /// The account's secret is a command's output: VaultMail kept nothing.
        case nothingKept
        case removed
        /// The keyring refused; the reason and the command that removes it by hand are in `summary`.
        case failed(String)
    }

    /// What happened to an OAuth2 sign-in at its provider.
    public enum Revocation: Sendable, Equatable {
        /// Not an OAuth2 sign-in kept by VaultMail, or its provider has no revocation endpoint.
        case notApplicable
        case revoked(provider: String)
        case failed(provider: String, reason: String)
    }

    public var account: Account
    public var keyring: Keyring
    public var revocation: Revocation

    public init(account: Account, keyring: Keyring, revocation: Revocation) {
        self.account = account
        self.keyring = keyring
        self.revocation = revocation
    }

    /// False when something could not be removed (the keyring entry): `summary` says how to.
    public var isComplete: Bool {
        if case .failed = keyring { return false }
        return true
    }

    /// The sentence(s) both doors show.
    public var summary: String {
        var text = "Removed account '\(account.name)' and all its mail, folders and settings from this machine."
        let secret = account.authMethod == .oauth2 ? "sign-in" : "password"
        switch keyring {
        case .nothingKept: break
        case .removed: text += " Its \(secret) was removed from the keyring."
        case .failed(let reason):
            text += " But its \(secret) could not be removed from the keyring (\(reason)); remove it with "
                + "`secret-tool clear application vaultmail account-id \(account.id)`."
        }
        switch revocation {
        case .notApplicable: break
        case .revoked(let provider): text += " Its sign-in was revoked at \(provider)."
        case .failed(let provider, let reason):
            text += " Its sign-in could not be revoked at \(provider) (\(reason)); remove VaultMail's access in your account's security settings."
        }
        return text
    }
}
