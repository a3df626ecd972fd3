import Foundation
internal import CEtPan

extension SMTPSession {
    /// MAIL FROM and one RCPT TO per recipient (Bcc included: the envelope is the only place
    /// they appear). If the server refuses any recipient the transaction is reset (RSET) and
    /// the error names every refused address with the server's reply.
    func beginTransaction(from sender: String, recipients: [String], size: Int) throws(SMTPError) {
        let operation = "send mail through"
        let smtp = try session(operation)
        guard !recipients.isEmpty else {
            throw makeError(.invalidRequest, operation, reason: "the message has no recipient")
        }
        for address in [sender] + recipients where !Self.isEnvelopeSafe(address) {
            throw makeError(
                .invalidRequest, operation,
                reason: "'\(address)' cannot be put in an SMTP envelope (it must be ASCII without spaces, brackets or line breaks)")
        }
        if let limit = capabilities.sizeLimit, size > limit {
            throw makeError(
                .rejected, operation, reason: "the message is \(size) bytes; the server accepts at most \(limit) (SIZE)")
        }
        if inTransaction {
            _ = mailsmtp_reset(smtp)
            inTransaction = false
        }
        // MAIL FROM with SIZE when the server announced it (libetpan adds the parameter then).
        try check(mailesmtp_mail_size(smtp, sender, 0, nil, size), "send mail from <\(sender)> through")
        inTransaction = true
        var refused: [String] = []
        var codes: [Int] = []
        for recipient in recipients {
            let code = mailesmtp_rcpt(smtp, recipient, 0, nil)
            if Int(code) == MAILSMTP_NO_ERROR { continue }
            if Int(code) == MAILSMTP_ERROR_STREAM { try check(code, "send to <\(recipient)> through") }
            let (reply, text) = lastReply()
            codes.append(reply ?? 0)
            refused.append("<\(recipient)>: " + [reply.map(String.init), text].compactMap { $0 }.joined(separator: " "))
        }
        guard refused.isEmpty else {
            _ = mailsmtp_reset(smtp)
            inTransaction = false
            let temporary = codes.allSatisfy { $0 >= 400 && $0 < 500 }
            throw makeError(
                temporary ? .temporaryFailure : .rejected,
                refused.count == 1 ? "deliver to a recipient through" : "deliver to \(refused.count) recipients through",
                server: refused.joined(separator: "; "), replyCode: codes.max(),
                reason: temporary ? nil : "nothing was sent; correct or remove the refused address")
        }
    }

    /// DATA and the message content. libetpan dot-stuffs lines starting with "." and ends the
    /// content with CRLF "." CRLF itself, so one trailing line break of the message is left
    /// out here: the bytes the server stores are exactly `message` (which should end in CRLF).
    func sendData(_ message: Data) throws(SMTPError) {
        let operation = "send the message through"
        let smtp = try session(operation)
        guard inTransaction else {
            throw makeError(.invalidRequest, operation, reason: "no transaction; call beginTransaction first")
        }
        try check(mailsmtp_data(smtp), operation)
        var count = message.count
        if message.count >= 2, message[message.endIndex - 2] == 0x0D, message[message.endIndex - 1] == 0x0A {
            count -= 2
        } else if message.last == 0x0A {
            count -= 1
        }
        let code = message.withUnsafeBytes { bytes -> Int32 in
            let pointer = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
            return mailsmtp_data_message(smtp, pointer, count)
        }
        inTransaction = false
        try check(code, operation)
    }

    /// RSET: abandons the current transaction.
    func reset() throws(SMTPError) {
        let smtp = try session("reset the transaction with")
        try check(mailsmtp_reset(smtp), "reset the transaction with")
        inTransaction = false
    }

    /// An address that fits between `<` and `>` in MAIL FROM / RCPT TO.
    static func isEnvelopeSafe(_ address: String) -> Bool {
        !address.isEmpty && address.utf8.count <= 400
            && address.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "<" && $0 != ">" }
    }
}
