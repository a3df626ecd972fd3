import Foundation
public import VaultMailCore

/// Where a mail server is and how to reach it over the shared secure connection: the
/// connection half of an `Account`, for IMAP (`IMAPEndpoint`) or SMTP (`SMTPEndpoint`).
public struct ServerEndpoint<Service: MailProtocol>: Sendable, Hashable {
    public var host: String
    public var port: Int
    /// `.tls` (implicit), `.starttls`, or `.plain` (loopback only).
    public var security: ConnectionSecurity
    /// A PEM file of CA certificates trusted in addition to the system store
    /// (`/etc/ssl/certs/ca-certificates.crt`), e.g. for a company CA or a test CA.
    public var caFile: String?
    /// How long to wait for the TCP connection and the TLS handshake.
    public var connectTimeout: Duration
    /// How long a command may wait for the server's next bytes before the connection counts
    /// as lost (by default the protocol's: 60 s for IMAP, 120 s for SMTP).
    public var readTimeout: Duration

    public init(
        host: String, port: Int, security: ConnectionSecurity, caFile: String? = nil,
        connectTimeout: Duration = .seconds(30), readTimeout: Duration = Service.defaultReadTimeout
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
    }

    /// `host:port`, as errors name the server.
    public var address: String { ServerAddress.text(host: host, port: port) }
}
