public import VaultMailCore

/// The password (or, for `AuthMethod.oauth2`, the access token) of an account as a closure:
/// the closure form of `CredentialProvider.secret(for:)`, for callers that hold closures
/// rather than a provider (`MailSending`). Adapters take either and keep a provider.
public typealias AccountSecretProvider = @Sendable (Account) async throws -> String

/// The closure form of `CredentialProvider.secretRefused(for:)`: told when a server refused
/// an OAuth2 access token, so the next secret is a fresh one.
public typealias AccountSecretRefusal = @Sendable (Account) async -> Void

/// A `CredentialProvider` made of the two closures.
public struct ClosureCredentialProvider: CredentialProvider {
    private let secret: AccountSecretProvider
    private let refused: AccountSecretRefusal

    public init(secret: @escaping AccountSecretProvider, refused: @escaping AccountSecretRefusal = { _ in }) {
        self.secret = secret
        self.refused = refused
    }

    public func secret(for account: Account) async throws -> String {
        try await secret(account)
    }

    public func secretRefused(for account: Account) async {
        await refused(account)
    }
}
