import Foundation
internal import CEtPan

/// The TLS handshake of a libetpan stream on a connected socket, shared by IMAP and SMTP:
/// blocking socket, a time limit, and SNI for host names (not for IP literals). The peer's
/// certificate is not checked here; call `TLSVerifier.verifyPeer` right after.
enum TLSHandshake {
    /// The TLS low stream over `fd`, or nil when the handshake failed. Ownership: on success
    /// the returned low stream owns `fd`; on failure `fd` is untouched (still the caller's).
    static func open(fd: Int32, host: String, timeout: Duration, readTimeout: Duration) -> UnsafeMutablePointer<mailstream_low>? {
        // libetpan's GnuTLS handshake loops on EAGAIN: give it a blocking socket.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) & ~O_NONBLOCK)
        let serverName = TCPConnector.isIPLiteral(host) ? nil : host
        let low: UnsafeMutablePointer<mailstream_low>? = withOptionalCString(serverName) { name in
            mailstream_low_tls_open_with_callback_timeout(
                fd, time_t(timeout.wholeSecondsAtLeastOne),
                { context, data in
                    guard let context, let data else { return }
                    _ = mailstream_ssl_set_server_name(context, data.assumingMemoryBound(to: CChar.self))
                },
                UnsafeMutableRawPointer(mutating: name))
        }
        if let low { mailstream_low_set_timeout(low, time_t(readTimeout.wholeSecondsAtLeastOne)) }
        return low
    }
}
