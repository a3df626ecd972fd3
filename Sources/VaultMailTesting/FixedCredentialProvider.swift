import VaultMailCore

/// Hands out fixed secrets by account id (tests only; a real provider reads a keyring or
/// runs the account's credential command).
public struct FixedCredentialProvider: CredentialProvider {
    public var secrets: [String: String]

    public init(_ secrets: [String: String]) {
        self.secrets = secrets
    }

    public func secret(for account: Account) async throws -> String {
        guard let secret = secrets[account.id] else { throw MissingSecret(accountId: account.id) }
        return secret
    }

    public struct MissingSecret: Error, CustomStringConvertible {
        public let accountId: String
        public var description: String { "no secret configured for account \(accountId)" }
    }
}
