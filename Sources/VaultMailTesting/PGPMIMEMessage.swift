import Foundation

/// Messages as OpenPGP mail clients send them (issue 32), built around another implementation's
/// armored output: PGP/MIME (RFC 3156) encrypted and signed, and inline PGP. Line ends are CRLF.
public enum PGPMIMEMessage {
    /// The MIME entity that is encrypted or signed: a text part, with the real subject as a
    /// Protected Header (RFC 9788 `protected-headers="v1"`) when `protectedSubject` is given.
    public static func entity(text: String, protectedSubject: String? = nil) -> [UInt8] {
        var lines = ["Content-Type: text/plain; charset=utf-8" + (protectedSubject == nil ? "" : "; protected-headers=\"v1\"")]
        if let protectedSubject { lines.append("Subject: \(protectedSubject)") }
        lines += ["Content-Transfer-Encoding: 8bit", "", text]
        return Array(lines.joined(separator: "\r\n").utf8) + Array("\r\n".utf8)
    }

    /// `multipart/encrypted` around `armored` (the OpenPGP message of the entity).
    public static func encrypted(from: String, to: String, subject: String = "...", messageId: String, armored: String) -> Data {
        let boundary = "enc-\(UUID().uuidString.prefix(8))"
        let body = [
            "This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)",
            "--\(boundary)",
            "Content-Type: application/pgp-encrypted",
            "Content-Description: PGP/MIME version identification",
            "",
            "Version: 1",
            "",
            "--\(boundary)",
            "Content-Type: application/octet-stream; name=\"encrypted.asc\"",
            "Content-Description: OpenPGP encrypted message",
            "Content-Disposition: inline; filename=\"encrypted.asc\"",
            "",
            armored.trimmingCharacters(in: .newlines),
            "",
            "--\(boundary)--",
            "",
        ]
        return message(from: from, to: to, subject: subject, messageId: messageId,
                       contentType: "multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=\"\(boundary)\"",
                       body: body.joined(separator: "\r\n"))
    }

    /// `multipart/signed` of `entity` (the exact bytes signed) and its detached `signature`.
    public static func signed(from: String, to: String, subject: String, messageId: String, entity: [UInt8], signature: String) -> Data {
        let boundary = "sig-\(UUID().uuidString.prefix(8))"
        var body = "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\r\n--\(boundary)\r\n"
        // The line break before a boundary line belongs to the boundary (RFC 2046 §5.1.1): the
        // part is the entity exactly as signed, its own last CRLF included.
        body += String(decoding: entity, as: UTF8.self)
        body += "\r\n--\(boundary)\r\n"
        body += "Content-Type: application/pgp-signature; name=\"signature.asc\"\r\nContent-Description: OpenPGP digital signature\r\n"
        body += "Content-Disposition: attachment; filename=\"signature.asc\"\r\n\r\n"
        body += signature.trimmingCharacters(in: .newlines) + "\r\n\r\n--\(boundary)--\r\n"
        return message(from: from, to: to, subject: subject, messageId: messageId,
                       contentType: "multipart/signed; micalg=pgp-sha256; protocol=\"application/pgp-signature\"; boundary=\"\(boundary)\"",
                       body: body)
    }

    /// A text/plain message whose text is `text` (an armored block, maybe with words around it).
    public static func inline(from: String, to: String, subject: String, messageId: String, text: String) -> Data {
        message(from: from, to: to, subject: subject, messageId: messageId, contentType: "text/plain; charset=utf-8",
                body: text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n"))
    }

    private static func message(from: String, to: String, subject: String, messageId: String, contentType: String, body: String) -> Data {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let headers = [
            "From: \(from)", "To: \(to)", "Subject: \(subject)", "Date: \(formatter.string(from: Date()))", "Message-ID: \(messageId)",
            "MIME-Version: 1.0", "Content-Type: \(contentType)",
        ]
        return Data((headers.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
    }
}
