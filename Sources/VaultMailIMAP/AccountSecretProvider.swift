public import VaultMailCore

/// Gives the password (or, for `AuthMethod.oauth2`, the access token) of an account when a
/// connection needs it. It comes from outside the adapters (a credential store, a password
/// command) and is used for the login only: never logged, stored or put in an error.
public typealias AccountSecretProvider = @Sendable (Account) async throws -> String
