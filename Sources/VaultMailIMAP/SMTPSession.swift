import Foundation
internal import CEtPan

/// Owns one libetpan `mailsmtp` session and makes every libetpan call of the SMTP client.
///
/// Not Sendable: it belongs to one `SMTPConnection` and is only used on that connection's
/// thread. Every call blocks until the server answers or the read timeout passes. Commands are
/// sent one at a time, each reply read before the next command (no pipelining), which is
/// correct whether or not the server offers PIPELINING.
final class SMTPSession {
    let endpoint: SMTPEndpoint
    /// nil while disconnected. Freed by `dropConnection()` and `deinit`.
    private(set) var smtp: UnsafeMutablePointer<mailsmtp>?
    private(set) var capabilities = SMTPCapabilities(ehloLines: [])
    private(set) var user: String?
    private(set) var isAuthenticated = false
    /// MAIL FROM was accepted and the transaction is not over.
    var inTransaction = false
    /// When the current operation started: a stream error after `readTimeout` is a timeout.
    private(set) var operationStart = ContinuousClock.now

    init(endpoint: SMTPEndpoint) {
        self.endpoint = endpoint
    }

    deinit {
        dropConnection()
    }

    var isConnected: Bool { smtp?.pointee.stream != nil }

    // MARK: Errors

    /// The one place where libetpan's SMTP return codes become `SMTPError`s. A stream error
    /// or a 421 also closes the connection, since its state is unknown afterwards.
    func check(_ code: Int32, _ operation: @autoclosure () -> String, refusal: SMTPError.Kind = .rejected) throws(SMTPError) {
        let code = Int(code)
        if code == MAILSMTP_NO_ERROR { return }
        let (replyCode, text) = lastReply()
        var server = replyCode.map { [String($0), text].filter { !$0.isEmpty }.joined(separator: " ") }
        var reason: String?
        var drop = false
        let kind: SMTPError.Kind
        switch code {
        case MAILSMTP_ERROR_STREAM:
            drop = true
            server = nil
            let failure = streamFailure()
            kind = failure.kind
            reason = failure.reason
        case MAILSMTP_ERROR_CONNECTION_REFUSED:
            drop = true
            kind = .connectionFailed
            reason = "the connection was refused"
        case MAILSMTP_ERROR_SERVICE_NOT_AVAILABLE:
            drop = true
            kind = .connectionFailed
            reason = "the server refuses service"
        case MAILSMTP_ERROR_MEMORY, MAILSMTP_ERROR_HOSTNAME:
            kind = .protocolError
            reason = "libetpan failed (\(String(cString: mailsmtp_strerror(Int32(code)))))"
        case MAILSMTP_ERROR_AUTH_NOT_SUPPORTED, MAILSMTP_ERROR_AUTH_LOGIN, MAILSMTP_ERROR_AUTH_REQUIRED,
             MAILSMTP_ERROR_AUTH_TOO_WEAK, MAILSMTP_ERROR_AUTH_TRANSITION_NEEDED, MAILSMTP_ERROR_AUTH_TEMPORARY_FAILTURE,
             MAILSMTP_ERROR_AUTH_ENCRYPTION_REQUIRED, MAILSMTP_ERROR_AUTH_AUTHENTICATION_FAILED:
            kind = .authenticationFailed
        case MAILSMTP_ERROR_STARTTLS_NOT_SUPPORTED, MAILSMTP_ERROR_STARTTLS_TEMPORARY_FAILURE, MAILSMTP_ERROR_SSL:
            kind = .tlsFailed
        default:
            switch replyCode ?? 0 {
            case 421:
                drop = true
                kind = .connectionLost
                reason = "the server is closing the connection"
            case 400..<500:
                kind = .temporaryFailure
            case 500..<600:
                kind = refusal
            default:
                kind = .protocolError
                reason = "unexpected reply (\(String(cString: mailsmtp_strerror(Int32(code)))))"
            }
        }
        let error = makeError(kind, operation(), server: server, replyCode: replyCode, reason: reason)
        if drop { dropConnection() }
        throw error
    }

    func makeError(
        _ kind: SMTPError.Kind, _ operation: String, server: String? = nil, replyCode: Int? = nil, reason: String? = nil
    ) -> SMTPError {
        SMTPError(
            kind: kind, operation: operation, host: endpoint.host, port: endpoint.port, user: user,
            serverResponse: server, replyCode: replyCode, reason: reason)
    }

    /// The code and text (lines joined by spaces) of the last reply; nil code when none was read.
    func lastReply() -> (code: Int?, text: String) {
        guard let smtp else { return (nil, "") }
        let code = Int(smtp.pointee.response_code)
        let text = replyLines().joined(separator: " ")
        return (code > 0 ? code : nil, text)
    }

    /// The text lines of the last reply, without their codes.
    func replyLines() -> [String] {
        guard let response = smtp?.pointee.response else { return [] }
        return String(cString: response).split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    /// Marks the start of an operation (for telling timeouts from drops).
    func begin() {
        operationStart = .now
    }

    /// The live session, or `.notConnected`.
    func session(_ operation: @autoclosure () -> String) throws(SMTPError) -> UnsafeMutablePointer<mailsmtp> {
        guard let smtp, smtp.pointee.stream != nil else {
            throw makeError(.notConnected, operation(), reason: "not connected")
        }
        begin()
        return smtp
    }

    /// Sends one command line (CRLF is added) and reads the reply; returns its code. With
    /// `isSecret` the line is kept out of libetpan's logger (credentials).
    func command(_ line: String, isSecret: Bool = false, _ operation: @autoclosure () -> String) throws(SMTPError) -> Int {
        let smtp = try session(operation())
        var bytes = Array((line + "\r\n").utf8CString)
        let sent = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return isSecret ? mailsmtp_send_command_private(smtp, base) : mailsmtp_send_command(smtp, base)
        }
        if isSecret {
            for index in bytes.indices { bytes[index] = 0 }
        }
        if sent == -1 { try check(Int32(MAILSMTP_ERROR_STREAM), operation()) }
        let reply = mailsmtp_read_response(smtp)
        if reply == 0 { try check(Int32(MAILSMTP_ERROR_STREAM), operation()) }
        return Int(reply)
    }

    // MARK: Connection

    /// Closes the socket without QUIT and frees the session. Safe to call at any time.
    func dropConnection() {
        guard let smtp else { return }
        // Closed first, mailsmtp_free skips its QUIT (which would write to a dead server).
        SecureStream.closeAndClear(&smtp.pointee.stream)
        mailsmtp_free(smtp)
        self.smtp = nil
        isAuthenticated = false
        inTransaction = false
    }

    /// Sends QUIT (when still connected) and closes the connection.
    func quit() {
        guard let smtp, smtp.pointee.stream != nil else {
            dropConnection()
            return
        }
        begin()
        // mailsmtp_quit writes QUIT and closes the stream without waiting for the reply.
        _ = mailsmtp_quit(smtp)
        dropConnection()
    }

    func adopt(_ smtp: UnsafeMutablePointer<mailsmtp>) {
        self.smtp = smtp
    }

    func updateCapabilities(_ capabilities: SMTPCapabilities) {
        self.capabilities = capabilities
    }

    func markAuthenticated(as user: String) {
        self.user = user
        isAuthenticated = true
    }

    func setUser(_ user: String?) {
        self.user = user
    }
}
