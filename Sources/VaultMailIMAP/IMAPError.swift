import Foundation

/// Why an IMAP operation failed. The description names the server (host and port), the user
/// and the mailbox involved, quotes the server's own words when it gave any, and says what to
/// do. It never contains a password or token.
///
/// Example: `cannot log in to 127.0.0.1:1143 as ada: [AUTHENTICATIONFAILED] Authentication failed.
/// Check the user name and password.`
public struct IMAPError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    public enum Kind: String, Sendable, Equatable {
        /// The caller passed something that cannot be sent (an empty UID set, a bad name).
        case invalidRequest
        /// `.plain` security to a host that is not a loopback address.
        case plaintextRefused
        /// DNS or the TCP connection failed.
        case connectionFailed
        /// The server did not answer in time.
        case timedOut
        /// The TLS handshake failed (or STARTTLS could not be started).
        case tlsFailed
        /// The server's certificate is not trusted or not valid for the host name.
        /// Nothing, in particular no credential, was sent to that server.
        case certificateRejected
        /// LOGIN or AUTHENTICATE was refused.
        case authenticationFailed
        /// The server answered NO or BAD to a command.
        case commandFailed
        /// The connection dropped, the server said BYE, or it stopped answering.
        /// The connection is closed; connect again.
        case connectionLost
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

    public var description: String {
        ServerAddress.errorText(operation: operation, host: host, port: port, user: user, details: [serverResponse, reason], hint: hint)
    }

    public var errorDescription: String? { description }

    /// The server refused LOGIN or AUTHENTICATE for good: not a login it could not process
    /// for now (`[UNAVAILABLE]`, RFC 5530).
    public var isLoginRefused: Bool {
        kind == .authenticationFailed && serverResponse?.uppercased().hasPrefix("[UNAVAILABLE]") != true
    }

    /// What the user (or the calling code) can do about it.
    public var hint: String? {
        switch kind {
        case .invalidRequest: return nil
        case .plaintextRefused: return "Use TLS (usually port 993) or STARTTLS (usually port 143)."
        case .connectionFailed: return "Check the host name, the port and the network."
        case .timedOut: return "The server did not answer in time; try again later or raise the timeout."
        case .tlsFailed: return "Check that the port speaks the chosen security (TLS on 993, STARTTLS on 143)."
        case .certificateRejected:
            return "Nothing was sent to the server. If you trust it, name its CA certificate in the account's CA file."
        case .authenticationFailed: return "Check the user name and password (or renew the access token)."
        case .commandFailed: return nil
        case .connectionLost: return "The connection is closed; connect again."
        case .protocolError: return "Try again (connect again if the connection was closed); if it keeps happening, report the server's software."
        case .notConnected: return "Connect (and log in) first."
        case .unsupported: return nil
        }
    }
}

extension IMAPError.Kind {
    /// The same failure of the stream under the session (every stream failure kind is a
    /// case of ours by name; tested).
    init(_ kind: SecureStream.Failure.Kind) {
        self = Self(rawValue: kind.rawValue) ?? .connectionFailed
    }
}
