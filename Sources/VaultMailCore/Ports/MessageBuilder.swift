/// Turns an `OutgoingMessage` into the RFC 5322 bytes that are sent, appended to Sent and
/// kept in the outbox. The same input gives the same bytes.
public protocol MessageBuilder: Sendable {
    /// The message with CRLF line ends, every line at most 998 bytes, ending in CRLF.
    /// Throws `ComposeError.invalidAddress` for an address that cannot be written.
    func build(_ message: OutgoingMessage) throws -> [UInt8]
}
