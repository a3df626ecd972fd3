public import VaultMailCore

/// Gives the password (or, for `AuthMethod.oauth2`, the access token) of an account when a
/// connection needs it. It comes from outside the adapters (a credential store, a password
/// command) and is used for the login only: never logged, stored or put in an error.
public typealias AccountSecretProvider = @Sendable (Account) async throws -> String

/// Told when a server refused an OAuth2 access token (XOAUTH2's error reply): the provider of
/// the token forgets it, so the next `AccountSecretProvider` call gets a fresh one. The login
/// is then tried once more.
public typealias AccountSecretRefusal = @Sendable (Account) async -> Void

/// A server refused an OAuth2 access token, and the login may be tried once more.
struct AccessTokenRefused: Error {}
