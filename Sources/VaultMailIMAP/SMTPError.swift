import Foundation

/// Why an SMTP operation failed: names the server (host and port) and the user, quotes the
/// server's reply (code and text) when there was one, and says what to do. It never contains a
/// password or token.
///
/// Example: `cannot log in to 127.0.0.1:2465 as ada: 535 5.7.8 Authentication credentials
/// invalid. Check the user name and password (or renew the access token).`
public typealias SMTPError = ServerError<SMTP>

extension SMTP {
    /// The kinds of `SMTPError`.
    public enum ErrorKind: String, ServerErrorKind {
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

    /// AUTH was refused for good (wrong password, refused token), not for now (454).
    public static func isLoginRefused(_ error: SMTPError) -> Bool {
        error.kind == .authenticationFailed && !error.isTransient
    }

    public static func hint(for error: SMTPError) -> String? {
        switch error.kind {
        case .temporaryFailure: "The server cannot accept it right now; it will be tried again."
        default: error.kind.sharedHint(for: SMTP.self)
        }
    }
}

extension ServerError where Service == SMTP {
    /// True when trying again later may succeed without anyone changing anything.
    public var isTransient: Bool {
        switch kind {
        case .connectionFailed, .timedOut, .connectionLost, .temporaryFailure: true
        case .authenticationFailed: replyCode == 454
        default: false
        }
    }
}
