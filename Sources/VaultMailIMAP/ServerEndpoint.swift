import Foundation
public import VaultMailCore

/// Where a mail server is and how to reach it, for IMAP (`IMAPEndpoint`) and SMTP
/// (`SMTPEndpoint`) alike.
public protocol ServerEndpoint: Sendable {
    var host: String { get }
    var port: Int { get }
    /// `.tls` (implicit), `.starttls`, or `.plain` (loopback only).
    var security: ConnectionSecurity { get }
    /// A PEM file of CA certificates trusted in addition to the system store
    /// (`/etc/ssl/certs/ca-certificates.crt`), e.g. for a company CA or a test CA.
    var caFile: String? { get }
    /// How long to wait for the TCP connection and the TLS handshake.
    var connectTimeout: Duration { get }
    /// How long to wait for the server's next bytes before the connection counts as lost.
    var readTimeout: Duration { get }
}

extension ServerEndpoint {
    /// `host:port`, as errors name the server.
    public var address: String { ServerAddress.text(host: host, port: port) }
}
