/// The OpenPGP content a message carries, as its MIME structure (RFC 3156) or its text
/// (inline PGP) presents it: what `OpenPGPReading` hands to the engine.
public enum OpenPGPPayload: Sendable, Hashable {
    /// PGP/MIME `multipart/encrypted; protocol="application/pgp-encrypted"`: the OpenPGP
    /// message of its second part. It decrypts to a MIME entity.
    case encrypted(ciphertext: [UInt8])
    /// PGP/MIME `multipart/signed; protocol="application/pgp-signature"`: the signed first part
    /// exactly as it stands (headers and body, CRLF line ends, RFC 3156 §5), and the signature.
    case signed(content: [UInt8], signature: [UInt8])
}

/// Finds the PGP/MIME structure of a message or a decrypted MIME entity (implemented over
/// GMime by `GMimeMessageParser`).
public protocol OpenPGPStructureReader: Sendable {
    /// The PGP/MIME payload of the top-level entity of `raw` (a message, or a MIME entity with
    /// headers), or nil when it is not `multipart/encrypted` or `multipart/signed` with an
    /// OpenPGP protocol.
    func openPGPPayload(in raw: [UInt8]) -> OpenPGPPayload?
}
