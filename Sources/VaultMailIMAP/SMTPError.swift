import Foundation

/// Why an SMTP operation failed. The description names the server (host and port) and the
/// user, quotes the server's reply (code and text) when there was one, and says what to do.
/// It never contains a password or token.
///
/// Example: `cannot log in to 127.0.0.1:2465 as ada: 535 5.7.8 Authentication credentials
/// invalid. Check the user name and password (or renew the access token).`
public struct SMTPError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    public enum Kind: String, Sendable, Equatable {
        /// The caller passed something that cannot be sent (an address with a line break).
        case invalidRequest
        /// `.plain` security to a host that is not a loopback address.
        case plaintextRefused
        /// DNS or the TCP connection failed, or the server refused service at the greeting.
        case connectionFailed
        /// The server did not answer in time.
        case timedOut
        /// The TLS handshake failed or STARTTLS is not offered.
        case tlsFailed
        /// The server's certificate is not trusted or not valid for the host name. Nothing, in
        /// particular no credential, was sent to that server.
        case certificateRejected
        /// AUTH was refused.
        case authenticationFailed
        /// A 4xx reply: the server cannot do it now; trying again later may work.
        case temporaryFailure
        /// A 5xx reply: the server refuses (a recipient, the sender, the message).
        case rejected
        /// The connection dropped or the server closed it. Connect again.
        case connectionLost
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

    public var description: String {
        ServerAddress.errorText(operation: operation, host: host, port: port, user: user, details: [serverResponse, reason], hint: hint)
    }

    public var errorDescription: String? { description }

    /// True when trying again later may succeed without anyone changing anything.
    public var isTransient: Bool {
        switch kind {
        case .connectionFailed, .timedOut, .connectionLost, .temporaryFailure: true
        case .authenticationFailed: replyCode == 454
        default: false
        }
    }

    /// What the user (or the calling code) can do about it.
    public var hint: String? {
        switch kind {
        case .invalidRequest, .unsupported: return nil
        case .plaintextRefused: return "Use TLS (usually port 465) or STARTTLS (usually port 587)."
        case .connectionFailed: return "Check the host name, the port and the network."
        case .timedOut: return "The server did not answer in time; try again later."
        case .tlsFailed: return "Check that the port speaks the chosen security (TLS on 465, STARTTLS on 587)."
        case .certificateRejected:
            return "Nothing was sent to the server. If you trust it, name its CA certificate in the account's CA file."
        case .authenticationFailed: return "Check the user name and password (or renew the access token)."
        case .temporaryFailure: return "The server cannot accept it right now; it will be tried again."
        case .rejected: return nil
        case .connectionLost: return "The connection is closed; connect again."
        case .protocolError: return "Try again (connect again if the connection was closed); if it keeps happening, report the server's software."
        case .notConnected: return "Connect (and log in) first."
        }
    }
}

extension SMTPError.Kind {
    /// The same failure of the stream under the session (every stream failure kind is a
    /// case of ours by name; tested).
    init(_ kind: SecureStream.Failure.Kind) {
        self = Self(rawValue: kind.rawValue) ?? .connectionFailed
    }
}
