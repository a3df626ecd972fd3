/// PGP/MIME (RFC 3156) messages around the content `RFC5322MessageBuilder` writes (issue 32):
/// `multipart/encrypted` with the headers protected inside, and `multipart/signed`. The
/// OpenPGP operations themselves are the `OpenPGPEngine`'s; this only lays out the bytes.
extension RFC5322MessageBuilder {
    /// The outer Subject of an encrypted message: the real one is a Protected Header inside,
    /// as Thunderbird, Delta Chat and Enigmail write it.
    public static let hiddenSubject = "..."

    public func protectedEntity(_ message: OutgoingMessage) throws -> [UInt8] {
        var protected = try headers(message, subject: message.subject)
        protected = protected.replacingOccurrences(of: "MIME-Version: 1.0\r\n", with: "")
        for gossip in message.gossip { protected += MIMEEncoding.header("Autocrypt-Gossip", gossip.tokens) }
        let body = content(message)
        let (contentType, rest) = Self.splitFirstHeader(String(decoding: body.headers, as: UTF8.self))
        let marked = contentType.dropLast(2) + ";\r\n protected-headers=\"v1\"\r\n"
        return Array((marked + protected + rest).utf8) + MIMEEncoding.crlf + body.content
    }

    public func encryptedMessage(_ message: OutgoingMessage, ciphertext: [UInt8]) throws -> [UInt8] {
        let head = try headers(message, subject: Self.hiddenSubject)
        var boundaries = BoundarySource(messageId: Self.normalizedId(message.messageId) + "/openpgp")
        let control = Part(headers: Array("Content-Type: application/pgp-encrypted\r\nContent-Description: PGP/MIME version identification\r\n".utf8),
                           content: Array("Version: 1\r\n".utf8), isFreeText: false)
        let encrypted = Part(
            headers: Array(("Content-Type: application/octet-stream; name=\"encrypted.asc\"\r\n"
                            + "Content-Description: OpenPGP encrypted message\r\n"
                            + "Content-Disposition: inline; filename=\"encrypted.asc\"\r\n").utf8),
            content: MIMEEncoding.crlfLines(String(decoding: ciphertext, as: UTF8.self)), isFreeText: false)
        let body = multipart("encrypted", [control, encrypted], boundary: boundaries.next(),
                             parameters: " protocol=\"application/pgp-encrypted\";")
        return Array(head.utf8) + body.headers + MIMEEncoding.crlf + body.content
    }

    public func signedEntity(_ message: OutgoingMessage) throws -> [UInt8] {
        let body = content(message, forSigning: true)
        return body.headers + MIMEEncoding.crlf + body.content
    }

    public func signedMessage(_ message: OutgoingMessage, entity: [UInt8], signature: OpenPGPDetachedSignature) throws -> [UInt8] {
        let head = try headers(message, subject: message.subject)
        var boundaries = BoundarySource(messageId: Self.normalizedId(message.messageId) + "/openpgp")
        // The signed entity goes in as it was signed: its headers, the blank line and its content.
        let split = Self.headerEnd(of: entity)
        let signed = Part(headers: Array(entity[..<split]), content: Array(entity[(split + 2)...]), isFreeText: true)
        let detached = Part(
            headers: Array(("Content-Type: application/pgp-signature; name=\"signature.asc\"\r\n"
                            + "Content-Description: OpenPGP digital signature\r\n"
                            + "Content-Disposition: attachment; filename=\"signature.asc\"\r\n").utf8),
            content: MIMEEncoding.crlfLines(String(decoding: signature.armored, as: UTF8.self)), isFreeText: false)
        let micalg = signature.micalg.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } ? signature.micalg : "pgp-sha256"
        let body = multipart("signed", [signed, detached], boundary: boundaries.next(),
                             parameters: " micalg=\(micalg); protocol=\"application/pgp-signature\";")
        return Array(head.utf8) + body.headers + MIMEEncoding.crlf + body.content
    }

    /// Where the header lines of `entity` end (after their last CRLF; the blank line follows).
    static func headerEnd(of entity: [UInt8]) -> Int {
        var index = 0
        while index + 3 < entity.count {
            if entity[index] == 0x0D, entity[index + 1] == 0x0A, entity[index + 2] == 0x0D, entity[index + 3] == 0x0A { return index + 2 }
            index += 1
        }
        return 0
    }

    /// The first header (with its folded lines) of `headers`, and the rest.
    static func splitFirstHeader(_ headers: String) -> (first: String, rest: String) {
        var end = headers.startIndex
        while let lineEnd = headers.range(of: "\r\n", range: end..<headers.endIndex) {
            end = lineEnd.upperBound
            guard end < headers.endIndex, headers[end] == " " || headers[end] == "\t" else { break }
        }
        return (String(headers[..<end]), String(headers[end...]))
    }
}
