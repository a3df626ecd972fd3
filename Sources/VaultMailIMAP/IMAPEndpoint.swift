import Foundation
public import VaultMailCore

/// Where an IMAP server is and how to reach it: the connection half of an `Account`.
public typealias IMAPEndpoint = ServerEndpoint<IMAP>

extension ServerEndpoint where Service == IMAP {
    /// The IMAP server of `account`.
    public init(account: Account, connectTimeout: Duration = .seconds(30), readTimeout: Duration = IMAP.defaultReadTimeout) {
        self.init(
            host: account.imapHost, port: account.imapPort, security: account.security, caFile: account.caFile,
            connectTimeout: connectTimeout, readTimeout: readTimeout)
    }
}
