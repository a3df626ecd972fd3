import Foundation
public import VaultMailCore

/// Where an IMAP server is and how to reach it: the connection half of an `Account`.
public struct IMAPEndpoint: ServerEndpoint, Hashable {
    public var host: String
    public var port: Int
    public var security: ConnectionSecurity
    /// A PEM file of CA certificates trusted in addition to the system store
    /// (`/etc/ssl/certs/ca-certificates.crt`), e.g. for a company CA or a test CA.
    public var caFile: String?
    /// How long to wait for the TCP connection (and the TLS handshake) to complete.
    public var connectTimeout: Duration
    /// How long a command may wait for the server's next bytes before the connection is
    /// treated as lost. IDLE waits as long as the caller asks, independently of this.
    public var readTimeout: Duration

    public init(
        host: String,
        port: Int,
        security: ConnectionSecurity,
        caFile: String? = nil,
        connectTimeout: Duration = .seconds(30),
        readTimeout: Duration = .seconds(60)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
    }

    /// The IMAP server of `account`.
    public init(account: Account, connectTimeout: Duration = .seconds(30), readTimeout: Duration = .seconds(60)) {
        self.init(
            host: account.imapHost, port: account.imapPort, security: account.security, caFile: account.caFile,
            connectTimeout: connectTimeout, readTimeout: readTimeout)
    }
}
