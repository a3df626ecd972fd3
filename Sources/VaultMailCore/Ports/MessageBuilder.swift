/// Turns an `OutgoingMessage` into the RFC 5322 bytes that are sent, appended to Sent and
/// kept in the outbox. The same input gives the same bytes.
public protocol MessageBuilder: Sendable {
    /// The message with CRLF line ends, every line at most 998 bytes, ending in CRLF.
    /// Throws `ComposeError.invalidAddress` for an address that cannot be written.
    func build(_ message: OutgoingMessage) throws -> [UInt8]

    // MARK: OpenPGP (RFC 3156, issue 32)

    /// The MIME entity that is encrypted (RFC 3156 §4): the message's content with its
    /// headers inside as Protected Headers (`protected-headers="v1"`: Date, From, To, Cc, the
    /// real Subject, Message-ID, In-Reply-To, References, the sender's Autocrypt header) and the
    /// `Autocrypt-Gossip` headers of `message.gossip`.
    func protectedEntity(_ message: OutgoingMessage) throws -> [UInt8]

    /// The message carrying `ciphertext`, the armored OpenPGP message of `protectedEntity`:
    /// `multipart/encrypted`, its outer Subject "..." (the real one is inside).
    func encryptedMessage(_ message: OutgoingMessage, ciphertext: [UInt8]) throws -> [UInt8]

    /// The MIME entity that is signed (RFC 3156 §5): the message's content, with text that
    /// transport could change (white space ending a line, "From " starting one) quoted-printable.
    func signedEntity(_ message: OutgoingMessage) throws -> [UInt8]

    /// The message `multipart/signed` of `entity` (from `signedEntity`) and its detached signature.
    func signedMessage(_ message: OutgoingMessage, entity: [UInt8], signature: OpenPGPDetachedSignature) throws -> [UInt8]
}
