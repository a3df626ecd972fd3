import Foundation
internal import CEtPan
import VaultMailCore

/// Owns one libetpan `mailimap` session and makes every libetpan call of the IMAP client.
///
/// Not Sendable: it belongs to one `IMAPConnection` and is only used on that connection's
/// thread. Every call blocks until the server answers or the read timeout passes. Ownership of
/// what libetpan allocates is written next to each call; the address sanitizer run of the
/// test suite (`swift test --sanitize=address`) checks it.
final class IMAPSession {
    let endpoint: IMAPEndpoint
    /// nil while disconnected. Freed by `dropConnection()` and `deinit`.
    private(set) var imap: UnsafeMutablePointer<mailimap>?
    private(set) var user: String?
    private(set) var capabilities = IMAPCapabilities([String]())
    /// The selected mailbox (decoded name) and whether it was opened read-only.
    private(set) var selectedMailbox: String?
    private(set) var isAuthenticated = false
    /// When the current operation started: a stream error after `readTimeout` is a timeout.
    private(set) var operationStart = ContinuousClock.now

    init(endpoint: IMAPEndpoint) {
        self.endpoint = endpoint
    }

    deinit {
        dropConnection()
    }

    var isConnected: Bool { imap != nil }

    // MARK: Errors

    /// The one place where libetpan's return codes become `IMAPError`s. Success codes return;
    /// a stream error, a BYE or an unparsable response also closes the connection, since its
    /// state is unknown afterwards.
    func check(
        _ code: Int32, _ operation: @autoclosure () -> String, mailbox: String? = nil,
        refusal: IMAPError.Kind = .commandFailed
    ) throws(IMAPError) {
        let code = Int(code)
        if code == MAILIMAP_NO_ERROR || code == MAILIMAP_NO_ERROR_AUTHENTICATED
            || code == MAILIMAP_NO_ERROR_NON_AUTHENTICATED {
            return
        }
        let kind: IMAPError.Kind
        var reason: String?
        var server: String? = serverWords()
        var drop = false
        switch code {
        case MAILIMAP_ERROR_STREAM:
            drop = true
            server = nil
            let failure = streamFailure()
            kind = failure.kind
            reason = failure.reason
        case MAILIMAP_ERROR_FATAL:
            drop = true
            kind = .connectionLost
            reason = "the server closed the connection (BYE)"
        case MAILIMAP_ERROR_PARSE:
            drop = true
            kind = .protocolError
            reason = "the server's response could not be parsed"
        case MAILIMAP_ERROR_MEMORY:
            kind = .protocolError
            reason = "out of memory"
        case MAILIMAP_ERROR_CONNECTION_REFUSED:
            drop = true
            kind = .connectionFailed
            reason = "the connection was refused"
        case MAILIMAP_ERROR_BAD_STATE:
            kind = .notConnected
            reason = isAuthenticated ? "no mailbox is selected" : "the session is not logged in"
        case MAILIMAP_ERROR_LOGIN:
            kind = .authenticationFailed
        case MAILIMAP_ERROR_PROTOCOL:
            kind = refusal
            reason = server == nil ? "the server rejected the command (BAD)" : nil
        default:
            kind = refusal
            if server == nil { reason = "the server refused (libetpan error \(code))" }
        }
        let error = makeError(kind, operation(), mailbox: mailbox, server: server, reason: reason)
        if drop { dropConnection() }
        throw error
    }

    func makeError(
        _ kind: IMAPError.Kind, _ operation: String, mailbox: String? = nil, server: String? = nil,
        reason: String? = nil
    ) -> IMAPError {
        IMAPError(
            kind: kind, operation: operation, host: endpoint.host, port: endpoint.port, user: user,
            mailbox: mailbox ?? selectedMailbox, serverResponse: server, reason: reason)
    }

    /// The text of the last tagged response with its response code, e.g.
    /// `[AUTHENTICATIONFAILED] Authentication failed.`; nil when the server said nothing.
    private func serverWords() -> String? {
        guard let imap, let response = imap.pointee.imap_response else { return nil }
        let text = String(cString: response).trimmingCharacters(in: .whitespacesAndNewlines)
        var code: String?
        if let info = imap.pointee.imap_response_info {
            if let atom = info.pointee.rsp_atom.map({ String(cString: $0) }), Self.errorCodes.contains(atom.uppercased()) {
                code = atom.uppercased()
            } else if info.pointee.rsp_trycreate != 0 {
                code = "TRYCREATE"
            } else if info.pointee.rsp_alert != nil {
                code = "ALERT"
            }
        }
        let words = [code.map { "[\($0)]" }, text.isEmpty ? nil : text].compactMap { $0 }.joined(separator: " ")
        return words.isEmpty ? nil : words
    }

    /// Response codes of tagged NO/BAD answers (RFC 5530 and friends). Only these are quoted:
    /// libetpan keeps the last code of any response, which may come from an untagged line.
    private static let errorCodes: Set<String> = [
        "UNAVAILABLE", "AUTHENTICATIONFAILED", "AUTHORIZATIONFAILED", "EXPIRED", "PRIVACYREQUIRED",
        "CONTACTADMIN", "NOPERM", "INUSE", "EXPUNGEISSUED", "CORRUPTION", "SERVERBUG", "CLIENTBUG",
        "CANNOT", "LIMIT", "OVERQUOTA", "ALREADYEXISTS", "NONEXISTENT",
    ]

    /// Marks the start of an operation (for telling timeouts from drops).
    func begin() {
        operationStart = .now
    }

    /// The live session, or `.notConnected`.
    func session(_ operation: @autoclosure () -> String) throws(IMAPError) -> UnsafeMutablePointer<mailimap> {
        guard let imap, imap.pointee.imap_stream != nil else {
            throw makeError(.notConnected, operation(), reason: "not connected")
        }
        begin()
        return imap
    }

    /// The live session with a selected mailbox, or `.notConnected`.
    func selectedSession(_ operation: @autoclosure () -> String) throws(IMAPError) -> (UnsafeMutablePointer<mailimap>, String) {
        let imap = try session(operation())
        guard let selectedMailbox else {
            throw makeError(.notConnected, operation(), reason: "no mailbox is selected; call select first")
        }
        return (imap, selectedMailbox)
    }

    // MARK: Connection

    /// Closes the socket without a LOGOUT and frees the session. Safe to call at any time.
    func dropConnection() {
        guard let imap else { return }
        // Closed first, mailimap_free skips its LOGOUT (which would block on a dead server).
        SecureStream.closeAndClear(&imap.pointee.imap_stream)
        mailimap_free(imap)
        self.imap = nil
        isAuthenticated = false
        selectedMailbox = nil
    }

    /// Sends LOGOUT (when still connected) and closes the connection.
    func logout() {
        guard let imap, imap.pointee.imap_stream != nil else {
            dropConnection()
            return
        }
        begin()
        // mailimap_logout closes and frees the stream itself, whatever the server answers.
        _ = mailimap_logout(imap)
        dropConnection()
    }

    /// The socket of the live stream, for polling during IDLE.
    var socketDescriptor: Int32 {
        guard let stream = imap?.pointee.imap_stream else { return -1 }
        return mailstream_low_get_fd(mailstream_get_low(stream))
    }

    /// libetpan's read buffer of the live stream is not empty.
    var hasBufferedInput: Bool {
        guard let stream = imap?.pointee.imap_stream else { return false }
        return stream.pointee.read_buffer_len > 0
    }

    func updateCapabilities(_ capabilities: IMAPCapabilities) {
        self.capabilities = capabilities
    }

    func markAuthenticated(as user: String?) {
        self.user = user
        isAuthenticated = true
    }

    func setUser(_ user: String?) {
        self.user = user
    }

    func markSelected(_ mailbox: String?) {
        selectedMailbox = mailbox
    }

    func adopt(_ imap: UnsafeMutablePointer<mailimap>) {
        self.imap = imap
    }
}
