/// Where the secret an account logs in with comes from: the password for
/// `AuthMethod.password`, the OAuth2 access token for `AuthMethod.oauth2`.
///
/// Implementations read the Secret Service, run the account's `credentialCommand`, or (in
/// tests) hand out a fixed value. The secret never reaches logs, errors or the database.
public protocol CredentialProvider: Sendable {
    /// The password or access token of `account`, by `account.authMethod`.
    func secret(for account: Account) async throws -> Secret
    /// The server refused the secret just given (an OAuth2 access token it no longer takes):
    /// a provider that caches tokens forgets this one, so the next `secret(for:)` is fresh.
    func secretRefused(for account: Account) async
}

extension CredentialProvider {
    /// Nothing is cached by default.
    public func secretRefused(for account: Account) async {}
}
