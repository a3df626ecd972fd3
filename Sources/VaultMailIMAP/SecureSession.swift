import Foundation
internal import CEtPan

/// A protocol's libetpan session over the shared secure connection (`SecureStream`):
/// `IMAPSession` and `SMTPSession`.
///
/// Connecting is written once here: refuse a second connection, open the stream (TCP with a
/// time limit, then implicit TLS and the certificate check, or plain text to loopback only),
/// hand it to the protocol's session, negotiate, and upgrade with STARTTLS (the protocol's
/// command, then the handshake on the same socket and the certificate check); whatever fails,
/// the connection is dropped, so no credential can follow on an unprotected one. Each session
/// supplies only its protocol's steps: its libetpan session, greeting and capabilities
/// (`negotiate`) and its STARTTLS command (`sendStartTLS`). Its errors are made
/// from the shared failures, of the same kind.
protocol SecureSession: AnyObject {
    associatedtype Service: MailProtocol
    typealias Failure = ServerError<Service>
    var endpoint: ServerEndpoint<Service> { get }
    /// The libetpan session exists (it may have lost its stream).
    var hasSession: Bool { get }
    /// When the current operation started (`begin()`): a stream error after the read
    /// timeout is a timeout.
    var operationStart: ContinuousClock.Instant { get }
    func begin()
    /// The protocol's error of `kind`, naming the server and the user.
    func failure(_ kind: Failure.Kind, _ operation: String, reason: String) -> Failure
    /// Creates the protocol's libetpan session over `stream` (which belongs to the session
    /// from then on, also when this throws), reads the greeting and the capabilities, and
    /// with `startTLS` calls `upgradeToTLS()` where the protocol has it. On failure the
    /// caller drops the connection.
    func negotiate(over stream: UnsafeMutablePointer<mailstream>, startTLS: Bool) throws(Failure)
    /// The server announced STARTTLS.
    var offersStartTLS: Bool { get }
    /// Sends the protocol's STARTTLS command; the stream to upgrade, nil when it is gone.
    func sendStartTLS(_ operation: String) throws(Failure) -> UnsafeMutablePointer<mailstream>?
    /// Closes the socket and frees the libetpan session.
    func dropConnection()
}

extension SecureSession {
    /// Opens the connection. No credential is sent here; a certificate that fails
    /// verification closes the connection before anything but the TLS handshake (implicit
    /// TLS) or what precedes STARTTLS was sent.
    func openConnection() throws(Failure) {
        let operation = "connect to"
        guard !hasSession else {
            throw failure(.invalidRequest, operation, reason: "already connected; disconnect first")
        }
        begin()
        let stream: UnsafeMutablePointer<mailstream>
        do {
            stream = try SecureStream.open(endpoint)
        } catch {
            throw failure(error)
        }
        do throws(Failure) {
            try negotiate(over: stream, startTLS: endpoint.security == .starttls)
        } catch {
            // Whatever failed (a refused greeting, STARTTLS, the certificate), the connection
            // must not stay open: a later login could otherwise go out unprotected.
            dropConnection()
            throw error
        }
    }

    /// STARTTLS, then the handshake on the same socket and the certificate check. On failure
    /// `openConnection()` drops the connection.
    func upgradeToTLS() throws(Failure) {
        let operation = "start TLS with"
        guard offersStartTLS else {
            throw failure(.tlsFailed, operation, reason: "the server does not offer STARTTLS")
        }
        guard let stream = try sendStartTLS(operation) else {
            throw failure(.connectionLost, operation, reason: "the connection was closed")
        }
        do {
            try SecureStream.startTLS(on: stream, endpoint)
        } catch {
            throw failure(error)
        }
    }

    /// The protocol's error for a failure of the stream, of the same kind.
    func failure(_ failure: SecureStream.Failure) -> Failure {
        self.failure(Failure.Kind(failure.kind), failure.operation, reason: failure.reason)
    }

    /// What a stream error means: a timeout when the operation waited the read timeout, else
    /// a closed connection.
    func streamFailure() -> (kind: Failure.Kind, reason: String) {
        if ContinuousClock.now - operationStart >= endpoint.readTimeout {
            return (.timedOut, "no answer within \(endpoint.readTimeout.wholeSecondsAtLeastOne) s")
        }
        return (.connectionLost, "the connection was closed")
    }
}
