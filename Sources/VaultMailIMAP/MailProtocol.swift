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
    /// The kinds of the protocol's `ServerError`.
    associatedtype ErrorKind: ServerErrorKind
    /// The server refused the login for good (wrong password, refused token), not a login it
    /// could not process for now.
    static func isLoginRefused(_ error: ServerError<Self>) -> Bool
    /// What the user (or the calling code) can do about `error`; the advice every protocol
    /// shares (`ServerErrorKind.sharedHint`) unless the protocol has its own.
    static func hint(for error: ServerError<Self>) -> String?
}

extension MailProtocol {
    public static func hint(for error: ServerError<Self>) -> String? {
        error.kind.sharedHint(for: Self.self)
    }
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
