import Foundation
public import VaultMailCore

/// Where an SMTP submission server is and how to reach it: the sending half of an `Account`.
public struct SMTPEndpoint: ServerEndpoint, Hashable {
    public var host: String
    public var port: Int
    /// `.tls` for implicit TLS (usually 465), `.starttls` (usually 587), `.plain` only to
    /// loopback addresses.
    public var security: ConnectionSecurity
    /// A PEM file of CA certificates trusted in addition to the system store.
    public var caFile: String?
    /// How long to wait for the TCP connection and the TLS handshake.
    public var connectTimeout: Duration
    /// How long to wait for each reply of the server (the reply to the message content may
    /// take a while on a busy server).
    public var readTimeout: Duration

    public init(
        host: String, port: Int, security: ConnectionSecurity, caFile: String? = nil,
        connectTimeout: Duration = .seconds(30), readTimeout: Duration = .seconds(120)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
    }

    /// The SMTP server of `account`. Port 587 (submission) speaks STARTTLS (RFC 8314), so an
    /// account whose IMAP uses TLS from the first byte upgrades there (Outlook, iCloud).
    public init(account: Account, connectTimeout: Duration = .seconds(30), readTimeout: Duration = .seconds(120)) {
        let security: ConnectionSecurity = account.security == .tls && account.smtpPort == 587 ? .starttls : account.security
        self.init(
            host: account.smtpHost, port: account.smtpPort, security: security, caFile: account.caFile,
            connectTimeout: connectTimeout, readTimeout: readTimeout)
    }
}
