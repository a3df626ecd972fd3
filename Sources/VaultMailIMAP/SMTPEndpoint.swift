import Foundation
public import VaultMailCore

/// Where an SMTP submission server is and how to reach it: the sending half of an `Account`.
/// `.tls` is implicit TLS (usually 465), `.starttls` usually 587, `.plain` only to loopback.
public typealias SMTPEndpoint = ServerEndpoint<SMTP>

extension ServerEndpoint where Service == SMTP {
    /// The SMTP server of `account`. Port 587 (submission) speaks STARTTLS (RFC 8314), so an
    /// account whose IMAP uses TLS from the first byte upgrades there (Outlook, iCloud).
    public init(account: Account, connectTimeout: Duration = .seconds(30), readTimeout: Duration = SMTP.defaultReadTimeout) {
        let security: ConnectionSecurity = account.security == .tls && account.smtpPort == 587 ? .starttls : account.security
        self.init(
            host: account.smtpHost, port: account.smtpPort, security: security, caFile: account.caFile,
            connectTimeout: connectTimeout, readTimeout: readTimeout)
    }
}
