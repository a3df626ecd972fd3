import VaultMailCore

/// Hands out fixed secrets by account id, or one for every account (tests only; a real
/// provider reads a keyring or runs the account's credential command).
public struct FixedCredentialProvider: CredentialProvider {
    public var secrets: [String: String]
    /// The secret of an account `secrets` does not name.
    public var everyAccount: String?

    public init(_ secrets: [String: String]) {
        self.secrets = secrets
    }

    /// `secret` for every account.
    public init(everyAccount secret: String) {
        secrets = [:]
        everyAccount = secret
    }

    public func secret(for account: Account) async throws -> Secret {
        guard let secret = secrets[account.id] ?? everyAccount else { throw MissingSecret(accountId: account.id) }
        return Secret(secret)
    }

    public struct MissingSecret: Error, CustomStringConvertible {
        public let accountId: String
        public var description: String { "no secret configured for account \(accountId)" }
    }
}
