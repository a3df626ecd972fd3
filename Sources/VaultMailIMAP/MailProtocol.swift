import Foundation

/// The protocol spoken over the shared secure connection (`SecureStream`): what differs
/// between IMAP and SMTP where they connect alike. `ServerEndpoint<IMAP>` is `IMAPEndpoint`,
/// `ServerEndpoint<SMTP>` is `SMTPEndpoint`; their errors' advice names the protocol's ports.
public protocol MailProtocol: Sendable {
    /// "IMAP", "SMTP", as errors name it.
    static var name: String { get }
    /// The usual port of implicit TLS (993, 465).
    static var implicitTLSPort: Int { get }
    /// The usual port of STARTTLS (143, 587).
    static var startTLSPort: Int { get }
    /// How long to wait for the server's next bytes, unless the endpoint says otherwise.
    static var defaultReadTimeout: Duration { get }
    /// What to do when the server did not answer in time (follows "try again later").
    static var timeoutAdvice: String { get }
}

/// IMAP over the shared secure connection.
public enum IMAP: MailProtocol {
    public static let name = "IMAP"
    public static let implicitTLSPort = 993
    public static let startTLSPort = 143
    /// IDLE waits as long as the caller asks, independently of this.
    public static let defaultReadTimeout = Duration.seconds(60)
    public static let timeoutAdvice = "try again later or raise the timeout"
}

/// SMTP submission over the shared secure connection.
public enum SMTP: MailProtocol {
    public static let name = "SMTP"
    public static let implicitTLSPort = 465
    public static let startTLSPort = 587
    /// The reply to the message content may take a while on a busy server.
    public static let defaultReadTimeout = Duration.seconds(120)
    /// The outbox tries again by itself.
    public static let timeoutAdvice = "try again later"
}
