import Foundation
public import VaultMailCore

/// `MailTransport` over SMTP: one `SMTPConnection` per message (connect with the account's
/// security and certificate checks, AUTH, MAIL FROM, RCPT TO for every recipient, DATA,
/// QUIT). Errors become `MailTransportError`s whose message is the `SMTPError`'s (host, port,
/// the server's reply, what to do).
public struct SMTPMailTransport: MailTransport {
    private let secret: AccountSecretProvider
    private let refused: AccountSecretRefusal
    private let connectTimeout: Duration
    private let readTimeout: Duration

    public init(
        connectTimeout: Duration = .seconds(30), readTimeout: Duration = .seconds(120),
        secret: @escaping AccountSecretProvider, refused: @escaping AccountSecretRefusal = { _ in }
    ) {
        self.secret = secret
        self.refused = refused
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
    }

    /// Connects (TLS or STARTTLS, certificate checked), reads the EHLO reply's SIZE, and quits.
    public func sizeLimit(account: Account) async throws -> Int? {
        let connection = SMTPConnection(endpoint: SMTPEndpoint(account: account, connectTimeout: connectTimeout, readTimeout: readTimeout))
        do {
            try await connection.connect()
        } catch let error as SMTPError {
            await connection.disconnect()
            throw Self.transportError(error)
        }
        let limit = await connection.capabilities.sizeLimit
        await connection.quit()
        return limit
    }

    public func send(
        _ message: [UInt8], envelope: MailEnvelope, account: Account,
        willTransmit: @escaping @Sendable () async throws -> Void
    ) async throws {
        let endpoint = SMTPEndpoint(account: account, connectTimeout: connectTimeout, readTimeout: readTimeout)
        let connection: SMTPConnection
        do {
            connection = try await signedIn(endpoint, account, mayRetry: true)
        } catch is AccessTokenRefused {
            // The server refused the OAuth2 access token: once more with a fresh one.
            await refused(account)
            connection = try await signedIn(endpoint, account, mayRetry: false)
        }
        do {
            try await connection.beginTransaction(from: envelope.sender, recipients: envelope.recipients, size: message.count)
        } catch let error as SMTPError {
            await connection.disconnect()
            throw Self.transportError(error)
        }
        do {
            try await willTransmit()
        } catch {
            await connection.disconnect()
            throw error
        }
        do {
            try await connection.sendData(Data(message))
        } catch let error as SMTPError {
            await connection.disconnect()
            throw Self.transportError(error)
        }
        await connection.quit()
    }

    /// A connection logged in to the account's server. With `mayRetry`, a refused OAuth2 access
    /// token throws `AccessTokenRefused` (the caller tries once more with a fresh one).
    private func signedIn(_ endpoint: SMTPEndpoint, _ account: Account, mayRetry: Bool) async throws -> SMTPConnection {
        let password: String
        do {
            password = try await secret(account)
        } catch {
            throw MailTransportError(
                kind: .authentication,
                message: "cannot send through \(endpoint.address): the password or token of account '\(account.name)' "
                    + "is not available (\(error))")
        }
        let connection = SMTPConnection(endpoint: endpoint)
        do {
            try await connection.connect()
            switch account.authMethod {
            case .password: try await connection.login(user: account.username, password: password)
            case .oauth2: try await connection.authenticateOAuth(user: account.username, accessToken: password)
            }
            return connection
        } catch let error as SMTPError {
            await connection.disconnect()
            if mayRetry, account.authMethod == .oauth2, error.kind == .authenticationFailed, !error.isTransient {
                throw AccessTokenRefused()
            }
            throw Self.transportError(error)
        }
    }

    /// What the outbox should make of an SMTP failure.
    public static func transportError(_ error: SMTPError) -> MailTransportError {
        let kind: MailTransportError.Kind =
            switch error.kind {
            case .connectionFailed, .timedOut, .connectionLost: .unreachable
            case .temporaryFailure: .temporary
            case .authenticationFailed: error.isTransient ? .temporary : .authentication
            case .rejected: .rejected
            case .tlsFailed, .certificateRejected, .plaintextRefused: .insecure
            case .invalidRequest, .protocolError, .notConnected, .unsupported: .invalid
            }
        return MailTransportError(kind: kind, message: error.description)
    }
}
