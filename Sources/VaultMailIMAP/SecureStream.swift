import Foundation
internal import CEtPan
import VaultMailCore

/// The byte stream under an IMAP or SMTP session. `open` connects over TCP, then either does
/// the TLS handshake and verifies the certificate before anything else is sent (implicit
/// TLS), or returns a plain stream (`.plain` only to loopback; STARTTLS later upgrades it
/// with `startTLS(on:)`, after the protocol's own STARTTLS command).
enum SecureStream {
    /// Read buffer of our streams: larger than the largest TLS record (16 KiB), so libetpan
    /// always takes a whole record from GnuTLS and none stays hidden from `poll` during IDLE.
    static let bufferSize = 32 * 1024

    /// Why the stream could not be opened or secured; each protocol's session makes it its
    /// own error (`SecureSession`), of the same kind.
    struct Failure: Error {
        var kind: ConnectionFailure
        var operation: String
        var reason: String
    }

    /// The connected stream. Ownership: the caller owns it (it owns the socket);
    /// `mailstream_close` releases both, as does the session it is handed to.
    static func open<Service>(_ endpoint: ServerEndpoint<Service>) throws(Failure) -> UnsafeMutablePointer<mailstream> {
        let fd: Int32
        do {
            fd = try TCPConnector.connect(
                host: endpoint.host, port: endpoint.port, timeout: endpoint.connectTimeout,
                readTimeout: endpoint.readTimeout, loopbackOnly: endpoint.security == .plain)
        } catch {
            throw failure(error, endpoint)
        }
        let low: UnsafeMutablePointer<mailstream_low>
        if endpoint.security == .tls {
            // Ownership: on success the TLS low stream owns `fd`; on failure `fd` is still ours.
            guard let tls = TLSHandshake.open(
                fd: fd, host: endpoint.host, timeout: endpoint.connectTimeout, readTimeout: endpoint.readTimeout)
            else {
                let failure = handshakeFailure(fd: fd, operation: "negotiate TLS with", reason: "the TLS handshake failed (does this port speak TLS?)")
                close(fd)
                throw failure
            }
            do {
                try verify(tls, endpoint)
            } catch {
                // Ownership: the TLS low stream owns the socket; close + free release both.
                mailstream_low_close(tls)
                mailstream_low_free(tls)
                throw error
            }
            low = tls
        } else {
            // Ownership: the socket low stream takes the descriptor (closed by mailstream_close).
            guard let plain = mailstream_low_socket_open(fd) else {
                close(fd)
                throw Failure(kind: .connectionFailed, operation: "connect to", reason: "out of memory")
            }
            mailstream_low_set_timeout(plain, time_t(endpoint.readTimeout.wholeSecondsAtLeastOne))
            low = plain
        }
        // Ownership: mailstream_new takes the low stream; mailstream_close frees both.
        guard let stream = mailstream_new(low, bufferSize) else {
            mailstream_low_close(low)
            mailstream_low_free(low)
            throw Failure(kind: .connectionFailed, operation: "connect to", reason: "out of memory")
        }
        return stream
    }

    /// After the server accepted STARTTLS: the handshake on the same socket and the
    /// certificate check; the stream then reads and writes through TLS. On failure the
    /// stream still owns the socket and the caller must drop the connection.
    static func startTLS(on stream: UnsafeMutablePointer<mailstream>, _ endpoint: ServerEndpoint<some MailProtocol>) throws(Failure) {
        let operation = "start TLS with"
        // Bytes already buffered after the STARTTLS answer were sent in plain text, possibly
        // injected by a third party: refuse rather than treat them as protected.
        if stream.pointee.read_buffer_len > 0 {
            throw Failure(kind: .tlsFailed, operation: operation, reason: "the server sent unexpected data right after STARTTLS")
        }
        let plainLow = mailstream_get_low(stream)
        let fd = mailstream_low_get_fd(plainLow)
        guard let tls = TLSHandshake.open(
            fd: fd, host: endpoint.host, timeout: endpoint.connectTimeout, readTimeout: endpoint.readTimeout)
        else {
            throw handshakeFailure(fd: fd, operation: operation, reason: "the TLS handshake failed")
        }
        // Ownership: freeing the plain low stream does not close `fd`, which the TLS low
        // stream now owns; mailstream_set_low hands the TLS low stream to the stream.
        mailstream_low_free(plainLow)
        mailstream_set_low(stream, tls)
        try verify(tls, endpoint)
    }

    /// Closes a session's stream and clears the session's field for it. Ownership: the
    /// session owns its stream; with the field cleared, freeing the session afterwards writes
    /// nothing to the server.
    static func closeAndClear(_ field: inout UnsafeMutablePointer<mailstream>?) {
        guard let stream = field else { return }
        mailstream_close(stream)
        field = nil
    }

    /// Why a TLS handshake on `fd` failed: a server that hung up without a word (one going
    /// down, or a proxy whose server is gone, which accepts and closes) could not be reached,
    /// and that is no TLS problem (issue 29); a server still there that did not speak TLS is.
    private static func handshakeFailure(fd: Int32, operation: String, reason: String) -> Failure {
        var byte: UInt8 = 0
        let peeked = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        let hungUp = peeked == 0 || (peeked < 0 && [ECONNRESET, EPIPE, ENOTCONN].contains(errno))
        guard hungUp else { return Failure(kind: .tlsFailed, operation: operation, reason: reason) }
        return Failure(kind: .connectionLost, operation: "connect to",
                       reason: "the server closed the connection before TLS could start (is it running?)")
    }

    private static func verify(_ low: UnsafeMutablePointer<mailstream_low>, _ endpoint: ServerEndpoint<some MailProtocol>) throws(Failure) {
        do {
            try TLSVerifier.verifyPeer(of: low, host: endpoint.host, caFile: endpoint.caFile)
        } catch {
            throw Failure(kind: .certificateRejected, operation: "trust", reason: error.reason)
        }
    }

    private static func failure<Service>(_ failure: TCPConnector.Failure, _ endpoint: ServerEndpoint<Service>) -> Failure {
        switch failure {
        case .notLoopback(let addresses):
            Failure(kind: .plaintextRefused, operation: "connect without TLS to",
                    reason: "plain-text \(Service.name) is only allowed to loopback addresses, and \(endpoint.host) is "
                        + addresses.joined(separator: ", "))
        case .resolution(let message):
            Failure(kind: .connectionFailed, operation: "connect to", reason: "the host name cannot be resolved (\(message))")
        case .refused(let message):
            Failure(kind: .connectionFailed, operation: "connect to", reason: message)
        case .timedOut:
            Failure(kind: .timedOut, operation: "connect to", reason: "no connection within \(endpoint.connectTimeout.wholeSecondsAtLeastOne) s")
        }
    }
}
