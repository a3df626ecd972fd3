import Foundation
internal import CEtPan
import VaultMailCore

extension IMAPSession {
    /// Read buffer of our streams: larger than the largest TLS record (16 KiB), so libetpan
    /// always takes a whole record from GnuTLS and none stays hidden from `poll` during IDLE.
    private static let streamBufferSize = 32 * 1024

    /// Opens the connection: TCP, then TLS (verified) or the greeting and STARTTLS (verified),
    /// then the capabilities. No credential is sent here; a certificate that fails
    /// verification closes the connection before anything but the TLS handshake was sent.
    func connect() throws(IMAPError) {
        let operation = "connect to"
        guard imap == nil else {
            throw makeError(.invalidRequest, operation, reason: "already connected; disconnect first")
        }
        begin()
        let security = endpoint.security
        let fd: Int32
        do {
            fd = try TCPConnector.connect(
                host: endpoint.host, port: endpoint.port, timeout: endpoint.connectTimeout,
                readTimeout: endpoint.readTimeout, loopbackOnly: security == .plain)
        } catch {
            throw connectError(error)
        }

        // Ownership: mailimap_new allocates the session; dropConnection() frees it.
        guard let session = mailimap_new(0, nil) else {
            close(fd)
            throw makeError(.connectionFailed, operation, reason: "out of memory")
        }
        adopt(session)

        let stream: UnsafeMutablePointer<mailstream>
        if security == .tls {
            let low = try openTLS(on: fd, operation: "negotiate TLS with", socketIsLoose: true)
            do {
                try verifyCertificate(of: low)
            } catch {
                // Ownership: the TLS low stream owns the socket; close + free release both.
                mailstream_low_close(low)
                mailstream_low_free(low)
                dropConnection()
                throw error
            }
            stream = try makeStream(low, operation: operation)
        } else {
            // Ownership: the socket low stream takes the descriptor (closed by mailstream_close).
            guard let low = mailstream_low_socket_open(fd) else {
                close(fd)
                dropConnection()
                throw makeError(.connectionFailed, operation, reason: "out of memory")
            }
            mailstream_low_set_timeout(low, time_t(endpoint.readTimeout.wholeSecondsAtLeastOne))
            stream = try makeStream(low, operation: operation)
        }

        // Ownership: from here the session owns the stream (imap_stream), even on failure.
        let greeting = mailimap_connect(session, stream)
        do throws(IMAPError) {
            try check(greeting, operation, refusal: .connectionFailed)
            let preauthenticated = Int(greeting) == MAILIMAP_NO_ERROR_AUTHENTICATED
            if security == .starttls {
                if preauthenticated {
                    throw makeError(
                        .tlsFailed, "start TLS with",
                        reason: "the server logged us in (PREAUTH) before STARTTLS could protect the connection")
                }
                try refreshCapabilities()
                try startTLS()
            }
            try refreshCapabilities()
            if preauthenticated { markAuthenticated(as: nil) }
        } catch {
            // Whatever failed (a refused greeting, STARTTLS, the certificate), the connection
            // must not stay open: a later LOGIN could otherwise go out unprotected.
            dropConnection()
            throw error
        }
    }

    private func connectError(_ failure: TCPConnector.Failure) -> IMAPError {
        switch failure {
        case .notLoopback(let addresses):
            return makeError(
                .plaintextRefused, "connect without TLS to",
                reason: "plain-text IMAP is only allowed to loopback addresses, and \(endpoint.host) is "
                    + addresses.joined(separator: ", "))
        case .resolution(let message):
            return makeError(.connectionFailed, "connect to", reason: "the host name cannot be resolved (\(message))")
        case .refused(let message):
            return makeError(.connectionFailed, "connect to", reason: message)
        case .timedOut:
            return makeError(
                .timedOut, "connect to",
                reason: "no connection within \(endpoint.connectTimeout.wholeSecondsAtLeastOne) s")
        }
    }

    /// Wraps a low stream in a buffered stream; closes everything on failure.
    private func makeStream(
        _ low: UnsafeMutablePointer<mailstream_low>, operation: String
    ) throws(IMAPError) -> UnsafeMutablePointer<mailstream> {
        // Ownership: mailstream_new takes the low stream; mailstream_close frees both.
        guard let stream = mailstream_new(low, Self.streamBufferSize) else {
            mailstream_low_close(low)
            mailstream_low_free(low)
            dropConnection()
            throw makeError(.connectionFailed, operation, reason: "out of memory")
        }
        return stream
    }

    /// TLS handshake on a connected socket, with SNI for host names (not for IP literals).
    /// `socketIsLoose` says the socket belongs to no stream yet, so a failure must close it;
    /// otherwise the session's plain stream still owns it and `dropConnection` closes it.
    private func openTLS(
        on fd: Int32, operation: String, socketIsLoose: Bool
    ) throws(IMAPError) -> UnsafeMutablePointer<mailstream_low> {
        // Ownership: on success the returned low stream owns `fd`; on failure `fd` is untouched.
        guard let low = TLSHandshake.open(
            fd: fd, host: endpoint.host, timeout: endpoint.connectTimeout, readTimeout: endpoint.readTimeout)
        else {
            if socketIsLoose { close(fd) }
            dropConnection()
            throw makeError(.tlsFailed, operation, reason: "the TLS handshake failed (does this port speak TLS?)")
        }
        return low
    }

    private func verifyCertificate(of low: UnsafeMutablePointer<mailstream_low>) throws(IMAPError) {
        do {
            try TLSVerifier.verifyPeer(of: low, host: endpoint.host, caFile: endpoint.caFile)
        } catch {
            throw makeError(.certificateRejected, "trust", reason: error.reason)
        }
    }

    /// STARTTLS, then the handshake on the same socket and the certificate check.
    private func startTLS() throws(IMAPError) {
        let operation = "start TLS with"
        let imap = try session(operation)
        guard capabilities.startTLS else {
            dropConnection()
            throw makeError(.tlsFailed, operation, reason: "the server does not offer STARTTLS")
        }
        try check(mailimap_starttls(imap), operation, refusal: .tlsFailed)
        guard let stream = imap.pointee.imap_stream else {
            throw makeError(.connectionLost, operation, reason: "the connection was closed")
        }
        // Bytes already buffered after the STARTTLS answer were sent in plain text, possibly
        // injected by a third party: refuse rather than treat them as protected.
        if stream.pointee.read_buffer_len > 0 {
            dropConnection()
            throw makeError(.tlsFailed, operation, reason: "the server sent unexpected data right after STARTTLS")
        }
        let plainLow = mailstream_get_low(stream)
        let fd = mailstream_low_get_fd(plainLow)
        let tlsLow = try openTLS(on: fd, operation: operation, socketIsLoose: false)
        // Ownership: freeing the plain low stream does not close `fd`, which the TLS low
        // stream now owns; mailstream_set_low hands the TLS low stream to the stream.
        mailstream_low_free(plainLow)
        mailstream_set_low(stream, tlsLow)
        do {
            try verifyCertificate(of: tlsLow)
        } catch {
            dropConnection()
            throw error
        }
    }

    /// CAPABILITY, replacing what was known before.
    func refreshCapabilities() throws(IMAPError) {
        let imap = try session("read the capabilities of")
        var data: UnsafeMutablePointer<mailimap_capability_data>?
        // Ownership: mailimap_capability returns a copy; freed with mailimap_capability_data_free.
        try check(mailimap_capability(imap, &data), "read the capabilities of")
        guard let data else { return }
        defer { mailimap_capability_data_free(data) }
        var names: [String] = []
        forEach(data.pointee.cap_list, as: mailimap_capability.self) { capability in
            if Int(capability.pointee.cap_type) == MAILIMAP_CAPABILITY_AUTH_TYPE {
                if let type = capability.pointee.cap_data.cap_auth_type { names.append("AUTH=" + String(cString: type)) }
            } else if let name = capability.pointee.cap_data.cap_name {
                names.append(String(cString: name))
            }
        }
        updateCapabilities(IMAPCapabilities(names))
    }

    // MARK: Authentication

    /// LOGIN. The password goes to the server only; it is never part of an error.
    func login(user: String, password: String) throws(IMAPError) {
        let operation = "log in to"
        setUser(user)
        let imap = try session(operation)
        guard !user.contains(where: \.isNewline), !password.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw makeError(.invalidRequest, operation, reason: "the user name or password contains a line break")
        }
        if capabilities.loginDisabled {
            throw makeError(
                .authenticationFailed, operation,
                reason: "the server refuses LOGIN on this connection (LOGINDISABLED); use TLS or STARTTLS")
        }
        let code = user.withCString { userPointer in
            password.withCString { passwordPointer in mailimap_login(imap, userPointer, passwordPointer) }
        }
        try check(code, operation, refusal: .authenticationFailed)
        markAuthenticated(as: user)
        try refreshCapabilities()
    }

    /// SASL XOAUTH2 (Gmail, Outlook) with an access token from the caller. The token is sent
    /// as `base64("user=" user ^A "auth=Bearer " token ^A ^A)` in the AUTHENTICATE command
    /// itself (SASL-IR); it is never part of an error.
    func authenticateXOAuth2(user: String, accessToken: String) throws(IMAPError) {
        let operation = "log in (XOAUTH2) to"
        setUser(user)
        let imap = try session(operation)
        guard capabilities.authMechanisms.contains("XOAUTH2") else {
            throw makeError(.unsupported, operation, reason: "the server does not offer AUTH=XOAUTH2")
        }
        guard capabilities.contains("SASL-IR") else {
            throw makeError(.unsupported, operation, reason: "the server does not offer SASL-IR, which XOAUTH2 needs here")
        }
        let code = user.withCString { userPointer in
            accessToken.withCString { tokenPointer in mailimap_oauth2_authenticate(imap, userPointer, tokenPointer) }
        }
        try check(code, operation, refusal: .authenticationFailed)
        markAuthenticated(as: user)
        try refreshCapabilities()
    }
}
