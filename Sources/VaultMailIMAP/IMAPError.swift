import Foundation

/// Why an IMAP operation failed. The description (`ServerError`'s) names the server (host and
/// port), the user and the mailbox involved, quotes the server's own words when it gave any,
/// and says what to do. It never contains a password or token.
///
/// Example: `cannot log in to 127.0.0.1:1143 as ada: [AUTHENTICATIONFAILED] Authentication failed.
/// Check the user name and password.`
public struct IMAPError: ServerError {
    public typealias Service = IMAP

    public enum Kind: String, ServerErrorKind {
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

    public var kind: Kind
    /// What was being attempted, phrased to follow "cannot": "log in to", "select \"INBOX\" on".
    public var operation: String
    public var host: String
    public var port: Int
    public var user: String?
    public var mailbox: String?
    /// The server's words, with its response code: "[AUTHENTICATIONFAILED] Authentication failed."
    public var serverResponse: String?
    /// Our explanation when the server said nothing (or in addition to what it said).
    public var reason: String?

    public init(
        kind: Kind, operation: String, host: String, port: Int, user: String? = nil, mailbox: String? = nil,
        serverResponse: String? = nil, reason: String? = nil
    ) {
        self.kind = kind
        self.operation = operation
        self.host = host
        self.port = port
        self.user = user
        self.mailbox = mailbox
        self.serverResponse = serverResponse
        self.reason = reason
    }

    /// The server refused LOGIN or AUTHENTICATE for good: not a login it could not process
    /// for now (`[UNAVAILABLE]`, RFC 5530).
    public var isLoginRefused: Bool {
        kind == .authenticationFailed && serverResponse?.uppercased().hasPrefix("[UNAVAILABLE]") != true
    }
}
