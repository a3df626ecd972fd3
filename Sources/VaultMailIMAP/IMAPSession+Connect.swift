import Foundation
internal import CEtPan
import VaultMailCore

extension IMAPSession {
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
        let stream: UnsafeMutablePointer<mailstream>
        do {
            stream = try SecureStream.open(endpoint, protocolName: "IMAP")
        } catch {
            throw streamError(error)
        }
        // Ownership: mailimap_new allocates the session; dropConnection() frees it.
        guard let session = mailimap_new(0, nil) else {
            mailstream_close(stream)
            throw makeError(.connectionFailed, operation, reason: "out of memory")
        }
        adopt(session)

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

    private func streamError(_ failure: SecureStream.Failure) -> IMAPError {
        makeError(IMAPError.Kind(failure.kind), failure.operation, reason: failure.reason)
    }

    /// STARTTLS, then the handshake on the same socket and the certificate check. On failure
    /// `connect()` drops the connection.
    private func startTLS() throws(IMAPError) {
        let operation = "start TLS with"
        let imap = try session(operation)
        guard capabilities.startTLS else {
            throw makeError(.tlsFailed, operation, reason: "the server does not offer STARTTLS")
        }
        try check(mailimap_starttls(imap), operation, refusal: .tlsFailed)
        guard let stream = imap.pointee.imap_stream else {
            throw makeError(.connectionLost, operation, reason: "the connection was closed")
        }
        do {
            try SecureStream.startTLS(on: stream, endpoint)
        } catch {
            throw streamError(error)
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
}
