import Foundation

/// Why an IMAP operation failed: names the server (host and port), the user and the mailbox
/// involved, quotes the server's own words when it gave any, and says what to do. It never
/// contains a password or token.
///
/// Example: `cannot log in to 127.0.0.1:1143 as ada: [AUTHENTICATIONFAILED] Authentication failed.
/// Check the user name and password.`
public typealias IMAPError = ServerError<IMAP>

extension IMAP {
    /// The kinds of `IMAPError`.
    public enum ErrorKind: String, ServerErrorKind {
        /// The caller passed something that cannot be sent (an empty UID set, a bad name).
        case invalidRequest
        /// The failures of the shared secure connection (`ConnectionFailure`), by its names;
        /// `connectionFailed` is also a greeting that refuses, `connectionLost` also a BYE or a
        /// server that stopped answering.
        case plaintextRefused, connectionFailed, timedOut, tlsFailed, certificateRejected, connectionLost
        /// LOGIN or AUTHENTICATE was refused.
        case authenticationFailed
        /// The server answered NO or BAD to a command.
        case commandFailed
        /// The server's answer could not be understood.
        case protocolError
        /// The operation needs a connection (or a selected mailbox) that is not there.
        case notConnected
        /// The server lacks a capability the operation needs.
        case unsupported
    }

    /// The server refused LOGIN or AUTHENTICATE for good: not a login it could not process
    /// for now (`[UNAVAILABLE]`, RFC 5530).
    public static func isLoginRefused(_ error: IMAPError) -> Bool {
        error.kind == .authenticationFailed && error.serverResponse?.uppercased().hasPrefix("[UNAVAILABLE]") != true
    }
}
