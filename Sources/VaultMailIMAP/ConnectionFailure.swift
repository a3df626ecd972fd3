import Foundation

/// How the shared secure connection under IMAP and SMTP fails (`SecureStream`): the error
/// kinds `IMAPError.Kind` and `SMTPError.Kind` have alike, by the same names (tested), with
/// the same advice.
public enum ConnectionFailure: String, Sendable, CaseIterable {
    /// `.plain` security to a host that is not a loopback address.
    case plaintextRefused
    /// DNS or the TCP connection failed.
    case connectionFailed
    /// The server did not answer in time.
    case timedOut
    /// The TLS handshake failed or STARTTLS could not be started.
    case tlsFailed
    /// The server's certificate is not trusted or not valid for the host name. Nothing, in
    /// particular no credential, was sent to that server.
    case certificateRejected
    /// The connection dropped or the server closed it.
    case connectionLost

    /// What the user (or the calling code) can do about it, for a server of `service`.
    public func hint(for service: (some MailProtocol).Type) -> String {
        switch self {
        case .plaintextRefused:
            "Use TLS (usually port \(service.implicitTLSPort)) or STARTTLS (usually port \(service.startTLSPort))."
        case .connectionFailed: "Check the host name, the port and the network."
        case .timedOut: "The server did not answer in time; \(service.timeoutAdvice)."
        case .tlsFailed:
            "Check that the port speaks the chosen security (TLS on \(service.implicitTLSPort), STARTTLS on \(service.startTLSPort))."
        case .certificateRejected:
            "Nothing was sent to the server. If you trust it, name its CA certificate in the account's CA file."
        case .connectionLost: "The connection is closed; connect again."
        }
    }
}
