import Foundation

/// What `IMAPConnection` and `SMTPConnection` have alike: an actor on a thread of its own, made
/// for an endpoint of its protocol and opened by `connect()`.
public protocol MailConnection: Sendable {
    associatedtype Service: MailProtocol
    /// A connection to `endpoint`, not yet opened.
    init(endpoint: ServerEndpoint<Service>) throws
    /// Opens the connection (TCP, TLS or STARTTLS, certificate check, the protocol's greeting
    /// and capabilities); no credential is sent.
    func connect() async throws
    /// Closes the connection at once, without saying goodbye to the server.
    func disconnect() async
}

extension MailConnection {
    /// Opens a connection to `endpoint`: `init(endpoint:)`, then `connect()`.
    public static func connect(to endpoint: ServerEndpoint<Service>) async throws -> Self {
        let connection = try Self(endpoint: endpoint)
        try await connection.connect()
        return connection
    }
}
