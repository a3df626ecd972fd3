import Foundation
internal import CEtPan
import VaultMailCore

extension IMAPSession: SecureSession {
    /// Opens the connection (`SecureSession.openConnection`): TCP, then TLS (verified) or the
    /// greeting, CAPABILITY and STARTTLS (verified), then the capabilities. No credential is
    /// sent here; a certificate that fails verification closes the connection before anything
    /// but the TLS handshake was sent.
    func connect() throws(IMAPError) {
        try openConnection()
    }

    /// The session over `stream`, the greeting (PREAUTH is refused before STARTTLS), STARTTLS
    /// when asked, and the capabilities.
    func negotiate(over stream: UnsafeMutablePointer<mailstream>, startTLS: Bool) throws(IMAPError) {
        let operation = "connect to"
        // Ownership: mailimap_new allocates the session; dropConnection() frees it.
        guard let session = mailimap_new(0, nil) else {
            mailstream_close(stream)
            throw makeError(.connectionFailed, operation, reason: "out of memory")
        }
        adopt(session)
        // Ownership: from here the session owns the stream (imap_stream), even on failure.
        let greeting = mailimap_connect(session, stream)
        try check(greeting, operation, refusal: .connectionFailed)
        let preauthenticated = Int(greeting) == MAILIMAP_NO_ERROR_AUTHENTICATED
        if startTLS {
            if preauthenticated {
                throw makeError(
                    .tlsFailed, "start TLS with",
                    reason: "the server logged us in (PREAUTH) before STARTTLS could protect the connection")
            }
            try refreshCapabilities()
            try upgradeToTLS()
        }
        try refreshCapabilities()
        if preauthenticated { markAuthenticated(as: nil) }
    }

    var hasSession: Bool { imap != nil }

    var offersStartTLS: Bool { capabilities.startTLS }

    /// STARTTLS; `upgradeToTLS()` does the handshake and the certificate check.
    func sendStartTLS(_ operation: String) throws(IMAPError) -> UnsafeMutablePointer<mailstream>? {
        let imap = try session(operation)
        try check(mailimap_starttls(imap), operation, refusal: .tlsFailed)
        return imap.pointee.imap_stream
    }

    func failure(_ kind: IMAPError.Kind, _ operation: String, reason: String) -> IMAPError {
        makeError(kind, operation, reason: reason)
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
