import Foundation
internal import CEtPan

extension SMTPSession: SecureSession {
    /// Opens the connection (`SecureSession.openConnection`): TCP, then TLS (verified) or the
    /// greeting, EHLO and STARTTLS (verified), then EHLO. No credential is sent here; a
    /// certificate that fails verification closes the connection before anything but the TLS
    /// handshake (implicit TLS) or EHLO and STARTTLS (STARTTLS) was sent.
    func connect() throws(SMTPError) {
        try openConnection()
    }

    /// The session over `stream`, the greeting, EHLO, and STARTTLS then EHLO again when asked.
    func negotiate(over stream: UnsafeMutablePointer<mailstream>, startTLS: Bool) throws(SMTPError) {
        let operation = "connect to"
        // Ownership: mailsmtp_new allocates the session; dropConnection() frees it.
        guard let session = mailsmtp_new(0, nil) else {
            mailstream_close(stream)
            throw makeError(.connectionFailed, operation, reason: "out of memory")
        }
        adopt(session)
        mailsmtp_set_timeout(session, time_t(endpoint.readTimeout.wholeSecondsAtLeastOne))
        // Ownership: mailsmtp_connect keeps the stream in the session; when the greeting is
        // refused it closes the stream itself and clears the field.
        try check(mailsmtp_connect(session, stream), operation, refusal: .connectionFailed)
        try ehlo()
        if startTLS {
            try upgradeToTLS()
            try ehlo()
        }
    }

    var hasSession: Bool { smtp != nil }

    var offersStartTLS: Bool { capabilities.startTLS }

    /// STARTTLS; `upgradeToTLS()` does the handshake and the certificate check.
    func sendStartTLS(_ operation: String) throws(SMTPError) -> UnsafeMutablePointer<mailstream>? {
        let session = try session(operation)
        try check(mailesmtp_starttls(session), operation, refusal: .tlsFailed)
        return session.pointee.stream
    }

    func failure(_ kind: SMTPError.Kind, _ operation: String, reason: String) -> SMTPError {
        makeError(kind, operation, reason: reason)
    }

    /// EHLO with our address as an address literal (`[127.0.0.1]`, `[IPv6:::1]`), which is
    /// valid without a resolvable host name and tells the server nothing new. libetpan parses
    /// the reply for itself (STARTTLS, SIZE, DSN); we read the extensions and AUTH mechanisms.
    private func ehlo() throws(SMTPError) {
        let operation = "greet (EHLO)"
        let session = try session(operation)
        let reply = try command("EHLO \(localAddressLiteral(session))", operation)
        guard reply == 250 else {
            let (_, text) = lastReply()
            throw makeError(
                reply >= 400 && reply < 500 ? .temporaryFailure : .rejected, operation,
                server: "\(reply) \(text)", replyCode: reply, reason: "the server refused EHLO")
        }
        _ = mailesmtp_parse_ehlo(session)
        updateCapabilities(SMTPCapabilities(ehloLines: replyLines()))
    }

    /// Our end of the connection as an SMTP address literal.
    private func localAddressLiteral(_ session: UnsafeMutablePointer<mailsmtp>) -> String {
        guard let stream = session.pointee.stream else { return "[127.0.0.1]" }
        let fd = mailstream_low_get_fd(mailstream_get_low(stream))
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return "[127.0.0.1]" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(storage.ss_family)
        let copy = storage
        func text() -> String {
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if family == AF_INET6 {
            var address = withUnsafeBytes(of: copy) { $0.load(as: sockaddr_in6.self) }.sin6_addr
            inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
            return "[IPv6:" + text() + "]"
        }
        var address = withUnsafeBytes(of: copy) { $0.load(as: sockaddr_in.self) }.sin_addr
        inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        return "[" + text() + "]"
    }
}
