/// The SMTP envelope: who the server is told the message is from and whom it goes to.
/// Bcc recipients are here, never in the message's headers.
public struct MailEnvelope: Sendable, Hashable {
    public var sender: String
    public var recipients: [String]

    public init(sender: String, recipients: [String]) {
        self.sender = sender
        self.recipients = recipients
    }
}

/// Hands finished messages to an account's outgoing mail server (SMTP).
public protocol MailTransport: Sendable {
    /// Sends `message` (RFC 5322, CRLF) to `envelope.recipients` through `account`'s server.
    ///
    /// `willTransmit` is awaited once the server has accepted the sender and every recipient,
    /// right before the message content goes out: from then on the message may reach its
    /// recipients even when this call fails. If `willTransmit` throws, nothing is transmitted.
    /// Failures are `MailTransportError`s.
    func send(
        _ message: [UInt8], envelope: MailEnvelope, account: Account,
        willTransmit: @escaping @Sendable () async throws -> Void
    ) async throws

    /// The largest message `account`'s server accepts, in bytes (SMTP SIZE), or nil when it
    /// announces no limit. Throws a `MailTransportError` when the server cannot be asked.
    func sizeLimit(account: Account) async throws -> Int?
}

extension MailTransport {
    /// No limit known.
    public func sizeLimit(account: Account) async throws -> Int? { nil }
}

/// Why a transport could not send, in a form the outbox can act on.
public struct MailTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The server could not be reached or the connection broke: retry later.
        case unreachable
        /// The server answered with a temporary failure (4xx): retry later.
        case temporary
        /// The credentials were refused: the user must fix them.
        case authentication
        /// The server refused the message or a recipient for good (5xx).
        case rejected
        /// The connection could not be made safe (certificate, TLS, plain text refused).
        case insecure
        /// The message or envelope cannot be sent as it is.
        case invalid
    }

    public var kind: Kind
    /// The full explanation: server, port, the server's words and what to do.
    public var message: String
    /// What happened in a person's words (issue 29: the host without its port, the server's
    /// own words), when the transport has them; else `plainWords` says the kind's.
    public var words: String?

    public init(kind: Kind, message: String, words: String? = nil) {
        self.kind = kind
        self.message = message
        self.words = words
    }

    /// True when trying again later may succeed without anyone changing anything.
    public var isTransient: Bool { kind == .unreachable || kind == .temporary }

    public var description: String { message }
}
