import Foundation
public import VaultMailCore

/// Logs an account in on a new connection: the one place that does, for the IMAP connection
/// pool, `IMAPRemoteMailbox` and `SMTPMailTransport`.
///
/// The secret comes from the `CredentialProvider` first (a secret that cannot be had costs no
/// connection); then the connection is opened (TLS or STARTTLS, certificate checked) and, by
/// `account.authMethod`, the password or the OAuth2 access token is sent. When the server
/// refuses an access token for good (expired or revoked early), the provider forgets it and
/// everything is tried once more with a fresh one, so the user sees nothing. A connection
/// whose login failed is closed.
public struct AccountLogin: Sendable {
    public let credentials: any CredentialProvider

    public init(credentials: any CredentialProvider) {
        self.credentials = credentials
    }

    /// The provider could not give the account's secret; nothing was connected.
    public struct SecretUnavailable: Error, CustomStringConvertible {
        /// The provider's error.
        public let underlying: any Error
        public var description: String { "\(underlying)" }
    }

    /// A new IMAP connection to `endpoint`, logged in as `account`, owned by the caller.
    /// - Throws: `SecretUnavailable`, or the `IMAPError` of the connection or the login.
    public func imapConnection(for account: Account, endpoint: IMAPEndpoint) async throws -> IMAPConnection {
        try await connection(for: account) { try IMAPConnection(endpoint: endpoint) }
    }

    /// A new SMTP connection to `endpoint`, logged in as `account`, owned by the caller.
    /// - Throws: `SecretUnavailable`, or the `SMTPError` of the connection or the login.
    public func smtpConnection(for account: Account, endpoint: SMTPEndpoint) async throws -> SMTPConnection {
        try await connection(for: account) { SMTPConnection(endpoint: endpoint) }
    }

    private func connection<Connection: LoginConnection>(
        for account: Account, _ make: () throws -> Connection
    ) async throws -> Connection {
        do {
            return try await loggedIn(account, make)
        } catch let error as Connection.Failure where account.authMethod == .oauth2 && error.isLoginRefused {
            // The server refused the access token: once more with a fresh one.
            await credentials.secretRefused(for: account)
            return try await loggedIn(account, make)
        }
    }

    private func loggedIn<Connection: LoginConnection>(
        _ account: Account, _ make: () throws -> Connection
    ) async throws -> Connection {
        let secret: Secret
        do {
            secret = try await credentials.secret(for: account)
        } catch {
            throw SecretUnavailable(underlying: error)
        }
        let connection = try make()
        do {
            try await connection.connect()
            try await Self.authenticate(connection, as: account, with: secret)
            return connection
        } catch {
            await connection.disconnect()
            throw error
        }
    }

    /// Signs a connected IMAP connection in as `account` with `secret`, by the same choice of
    /// mechanism as every login (Test connection tries a new account's servers with it).
    public static func signIn(_ connection: IMAPConnection, as account: Account, with secret: Secret) async throws {
        try await authenticate(connection, as: account, with: secret)
    }

    /// Signs a connected SMTP connection in as `account` with `secret`, as `signIn(_:as:with:)` for IMAP.
    public static func signIn(_ connection: SMTPConnection, as account: Account, with secret: Secret) async throws {
        try await authenticate(connection, as: account, with: secret)
    }

    /// The one choice of mechanism, by `account.authMethod`: the password by the protocol's
    /// password login, an OAuth2 access token by XOAUTH2 or OAUTHBEARER.
    private static func authenticate<Connection: LoginConnection>(_ connection: Connection, as account: Account,
                                                                  with secret: Secret) async throws {
        switch account.authMethod {
        case .password: try await connection.authenticate(user: account.username, password: secret)
        case .oauth2: try await connection.authenticateOAuth(user: account.username, accessToken: secret)
        }
    }
}

/// A connection `AccountLogin` logs in on: `IMAPConnection`, `SMTPConnection`.
protocol LoginConnection: MailConnection {
    typealias Failure = ServerError<Service>
    /// The protocol's password login.
    func authenticate(user: String, password: Secret) async throws
    /// The protocol's OAuth2 login with an access token.
    func authenticateOAuth(user: String, accessToken: Secret) async throws
}
