import Foundation
public import VaultMailCore

/// `MailTransport` over SMTP: one `SMTPConnection` per message (connect with the account's
/// security and certificate checks, AUTH, MAIL FROM, RCPT TO for every recipient, DATA,
/// QUIT). Errors become `MailTransportError`s whose message is the `SMTPError`'s (host, port,
/// the server's reply, what to do).
public struct SMTPMailTransport: MailTransport {
    private let login: AccountLogin
    private let connectTimeout: Duration
    private let readTimeout: Duration

    /// - Parameter credentials: the password or access token of each account (`AccountLogin`).
    public init(
        connectTimeout: Duration = .seconds(30), readTimeout: Duration = SMTP.defaultReadTimeout,
        credentials: any CredentialProvider
    ) {
        login = AccountLogin(credentials: credentials)
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
            connection = try await login.smtpConnection(for: account, endpoint: endpoint)
        } catch let error as SMTPError {
            throw Self.transportError(error)
        } catch let failure as AccountLogin.SecretUnavailable {
            throw MailTransportError(
                kind: .authentication,
                message: "cannot send through \(endpoint.address): the password or token of account '\(account.name)' "
                    + "is not available (\(failure.underlying))",
                words: PlainWords.of(failure.underlying))
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
        return MailTransportError(kind: kind, message: error.description, words: error.plainWords)
    }
}
