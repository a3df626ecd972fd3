import Foundation

/// Why an IMAP or SMTP operation failed (`IMAPError` is `ServerError<IMAP>`, `SMTPError` is
/// `ServerError<SMTP>`). The description names the server (host and port) and the user, quotes
/// the server's own words when it gave any, adds our reason, and says what to do; it never
/// contains a password or token. The kinds are the protocol's (`IMAP.ErrorKind`,
/// `SMTP.ErrorKind`), above all the failures of the shared secure connection (`ConnectionFailure`)
/// under the same names.
///
/// Example: `cannot log in to 127.0.0.1:1143 as ada: [AUTHENTICATIONFAILED] Authentication
/// failed. Check the user name and password (or renew the access token).`
public struct ServerError<Service: MailProtocol>: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    public typealias Kind = Service.ErrorKind

    public var kind: Kind
    /// What was being attempted, phrased to follow "cannot": "log in to", "select \"INBOX\" on".
    public var operation: String
    public var host: String
    public var port: Int
    public var user: String?
    /// The mailbox involved (IMAP).
    public var mailbox: String?
    /// The server's words: "[AUTHENTICATIONFAILED] Authentication failed.", "535 5.7.8 …".
    public var serverResponse: String?
    /// The reply code, when an SMTP server answered.
    public var replyCode: Int?
    /// Our explanation when the server said nothing (or in addition to what it said).
    public var reason: String?

    public init(
        kind: Kind, operation: String, host: String, port: Int, user: String? = nil, mailbox: String? = nil,
        serverResponse: String? = nil, replyCode: Int? = nil, reason: String? = nil
    ) {
        self.kind = kind
        self.operation = operation
        self.host = host
        self.port = port
        self.user = user
        self.mailbox = mailbox
        self.serverResponse = serverResponse
        self.replyCode = replyCode
        self.reason = reason
    }

    /// "cannot log in to host:port as ada: [server's words] — our reason. Hint."
    public var description: String {
        var text = "cannot \(operation) \(ServerAddress.text(host: host, port: port))"
        if let user { text += " as \(user)" }
        let details = [serverResponse, reason].compactMap { $0 }.filter { !$0.isEmpty }
        text += ": " + (details.isEmpty ? "no further detail" : details.joined(separator: " — "))
        if let hint { text += (text.hasSuffix(".") ? " " : ". ") + hint }
        return text
    }

    public var errorDescription: String? { description }

    /// The failure of the shared secure connection this is, if it is one.
    public var connectionFailure: ConnectionFailure? { kind.connectionFailure }

    /// What the user (or the calling code) can do about it.
    public var hint: String? { Service.hint(for: self) }

    /// The server refused the login for good (wrong password, refused token), not a login
    /// it could not process for now.
    public var isLoginRefused: Bool { Service.isLoginRefused(self) }
}

/// The kinds every server error has: the failures of the shared secure connection and those
/// of a session over it. An `enum` of a protocol's error lists them as its cases, by name.
public protocol ServerErrorKind: RawRepresentable, Sendable, Equatable where RawValue == String {
    /// The caller passed something that cannot be sent.
    static var invalidRequest: Self { get }
    static var plaintextRefused: Self { get }
    static var connectionFailed: Self { get }
    static var timedOut: Self { get }
    static var tlsFailed: Self { get }
    static var certificateRejected: Self { get }
    static var connectionLost: Self { get }
    /// LOGIN, AUTHENTICATE or AUTH was refused.
    static var authenticationFailed: Self { get }
    /// The server's answer could not be understood.
    static var protocolError: Self { get }
    /// The operation needs a connection (or a login, a selected mailbox) that is not there.
    static var notConnected: Self { get }
    /// The server lacks something the operation needs.
    static var unsupported: Self { get }
}

extension ServerErrorKind {
    /// The kind of a failure of the shared secure connection.
    init(_ failure: ConnectionFailure) {
        self =
            switch failure {
            case .plaintextRefused: .plaintextRefused
            case .connectionFailed: .connectionFailed
            case .timedOut: .timedOut
            case .tlsFailed: .tlsFailed
            case .certificateRejected: .certificateRejected
            case .connectionLost: .connectionLost
            }
    }

    /// The failure of the shared secure connection this kind is, if it is one.
    public var connectionFailure: ConnectionFailure? {
        ConnectionFailure.allCases.first { Self($0) == self }
    }

    /// The advice for a kind every protocol has, for a server of `service`; nil for the rest.
    public func sharedHint(for service: (some MailProtocol).Type) -> String? {
        if let failure = connectionFailure { return failure.hint(for: service) }
        return switch self {
        case .authenticationFailed: "Check the user name and password (or renew the access token)."
        case .protocolError:
            "Try again (connect again if the connection was closed); if it keeps happening, report the server's software."
        case .notConnected: "Connect (and log in) first."
        default: nil
        }
    }
}
