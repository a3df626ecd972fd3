import Foundation

/// Why an SMTP operation failed. The description (`ServerError`'s) names the server (host and
/// port) and the user, quotes the server's reply (code and text) when there was one, and says what to do.
/// It never contains a password or token.
///
/// Example: `cannot log in to 127.0.0.1:2465 as ada: 535 5.7.8 Authentication credentials
/// invalid. Check the user name and password (or renew the access token).`
public struct SMTPError: ServerError {
    public typealias Service = SMTP

    public enum Kind: String, ServerErrorKind {
        /// The caller passed something that cannot be sent (an address with a line break).
        case invalidRequest
        /// The failures of the shared secure connection (`ConnectionFailure`), by its names;
        /// `connectionFailed` is also a server that refuses service at the greeting,
        /// `tlsFailed` one that does not offer STARTTLS.
        case plaintextRefused, connectionFailed, timedOut, tlsFailed, certificateRejected, connectionLost
        /// AUTH was refused.
        case authenticationFailed
        /// A 4xx reply: the server cannot do it now; trying again later may work.
        case temporaryFailure
        /// A 5xx reply: the server refuses (a recipient, the sender, the message).
        case rejected
        /// The server's reply could not be understood.
        case protocolError
        /// The operation needs a connection (or a login) that is not there.
        case notConnected
        /// The server lacks something the operation needs (an AUTH mechanism).
        case unsupported
    }

    public var kind: Kind
    /// What was being attempted, phrased to follow "cannot": "log in to", "send the message to".
    public var operation: String
    public var host: String
    public var port: Int
    public var user: String?
    /// The server's reply: "535 5.7.8 Authentication credentials invalid".
    public var serverResponse: String?
    /// The reply code, when the server answered.
    public var replyCode: Int?
    /// Our explanation when the server said nothing (or in addition to what it said).
    public var reason: String?

    public init(
        kind: Kind, operation: String, host: String, port: Int, user: String? = nil, serverResponse: String? = nil,
        replyCode: Int? = nil, reason: String? = nil
    ) {
        self.kind = kind
        self.operation = operation
        self.host = host
        self.port = port
        self.user = user
        self.serverResponse = serverResponse
        self.replyCode = replyCode
        self.reason = reason
    }

    /// True when trying again later may succeed without anyone changing anything.
    public var isTransient: Bool {
        switch kind {
        case .connectionFailed, .timedOut, .connectionLost, .temporaryFailure: true
        case .authenticationFailed: replyCode == 454
        default: false
        }
    }

    /// AUTH was refused for good (wrong password, refused token), not for now (454).
    public var isLoginRefused: Bool {
        kind == .authenticationFailed && !isTransient
    }

    /// What the user (or the calling code) can do about it.
    public var hint: String? {
        switch kind {
        case .temporaryFailure: "The server cannot accept it right now; it will be tried again."
        default: kind.sharedHint(for: SMTP.self)
        }
    }
}
