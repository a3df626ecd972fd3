/// The raw RFC 5322 source of stored messages, from which attachments and inline images are
/// read on demand.
public protocol MessageSourceRepository: Sendable {
    /// The message as it came from the server (or as it was sent); nil when it is not stored.
    func rawSource(emailId: String) async throws -> [UInt8]?
}
