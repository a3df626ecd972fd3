import Foundation
import VaultMailCore

/// One SMTP submission connection over libetpan's `mailsmtp`.
///
/// An actor with its own thread (the same executor pattern as `IMAPConnection`): libetpan's
/// blocking reads and writes block that thread only. Commands run one at a time in call order.
///
/// Certificates are verified (system store plus the endpoint's CA file, and the host name)
/// before any credential is sent — the same `TLSVerifier` as IMAP. Plain-text connections are
/// refused unless the host is a loopback address. Errors (`SMTPError`) name the host, port and
/// user and quote the server's reply; they never contain a password or token.
///
/// ```swift
/// let smtp = try await SMTPConnection.connect(to: SMTPEndpoint(account: account))
/// try await smtp.login(user: account.username, password: secret)
/// try await smtp.beginTransaction(from: account.email, recipients: ["ada@example.com"], size: message.count)
/// try await smtp.sendData(message)
/// await smtp.quit()
/// ```
public actor SMTPConnection: MailConnection {
    public nonisolated let endpoint: SMTPEndpoint
    private nonisolated let executor: OwnerThreadExecutor
    private let session: SMTPSession

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// A connection to `endpoint`, not yet opened: call `connect()`.
    public init(endpoint: SMTPEndpoint) {
        self.endpoint = endpoint
        executor = OwnerThreadExecutor(name: "smtp \(endpoint.address)")
        session = SMTPSession(endpoint: endpoint)
    }

    deinit {
        executor.shutDown()
    }

    // MARK: Connection

    /// Opens the connection. For `.tls` the certificate is checked right after the handshake;
    /// for `.starttls` after the upgrade (then EHLO again); `.plain` is refused for
    /// non-loopback hosts.
    public func connect() throws {
        try session.connect()
    }

    /// What the server announced in its (last) EHLO reply.
    public var capabilities: SMTPCapabilities { session.capabilities }
    public var isConnected: Bool { session.isConnected }
    public var isAuthenticated: Bool { session.isAuthenticated }

    /// AUTH with a password: PLAIN when offered, else LOGIN, or the given mechanism.
    public func login(user: String, password: Secret, mechanism: SMTPAuthMechanism? = nil) throws {
        try session.login(user: user, password: password.revealed, mechanism: mechanism)
    }

    /// AUTH XOAUTH2 with an access token obtained by the caller.
    public func authenticateXOAuth2(user: String, accessToken: Secret) throws {
        try session.authenticateXOAuth2(user: user, accessToken: accessToken.revealed)
    }

    /// AUTH OAUTHBEARER (RFC 7628) with an access token obtained by the caller.
    public func authenticateOAuthBearer(user: String, accessToken: Secret) throws {
        try session.authenticateOAuthBearer(user: user, accessToken: accessToken.revealed)
    }

    /// An OAuth2 access token by XOAUTH2 (Gmail, Outlook) when offered, else OAUTHBEARER.
    public func authenticateOAuth(user: String, accessToken: Secret) throws {
        switch OAuthMechanism.preferred(among: session.capabilities.authMechanisms) {
        case .oauthBearer: try session.authenticateOAuthBearer(user: user, accessToken: accessToken.revealed)
        case .xoauth2, nil: try session.authenticateXOAuth2(user: user, accessToken: accessToken.revealed)
        }
    }

    /// QUIT, then closes the connection. Never throws: the connection is closed either way.
    public func quit() {
        session.quit()
    }

    /// Closes the connection at once, without QUIT.
    public func disconnect() {
        session.dropConnection()
    }

    // MARK: Sending

    /// MAIL FROM `sender` (with SIZE when the server announced it) and RCPT TO every
    /// recipient. Any refused recipient resets the transaction and fails it, naming them all.
    public func beginTransaction(from sender: String, recipients: [String], size: Int) throws {
        try session.beginTransaction(from: sender, recipients: recipients, size: size)
    }

    /// DATA with the message (RFC 5322, CRLF line ends, ending in CRLF): the server stores
    /// exactly these bytes (dot-stuffing is applied on the wire and undone by the server).
    public func sendData(_ message: Data) throws {
        try session.sendData(message)
    }

    /// A whole transaction: `beginTransaction` then `sendData`.
    public func send(_ message: Data, from sender: String, to recipients: [String]) throws {
        try session.beginTransaction(from: sender, recipients: recipients, size: message.count)
        try session.sendData(message)
    }

    /// RSET: abandons a transaction begun but not finished.
    public func reset() throws {
        try session.reset()
    }
}
