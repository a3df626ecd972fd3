/// What opening one OpenPGP message found (`OpenPGPReading.read`): its state, and which of its
/// stored parts are the OpenPGP structure (the `application/pgp-encrypted` control part, the
/// ciphertext, the detached signature), which the faces do not list as attachments.
public struct OpenedCrypto: Sendable, Hashable {
    public var state: MessageCrypto
    /// IMAP part numbers of the stored attachments that are OpenPGP structure, not files.
    public var structuralPartIds: Set<String>

    public init(state: MessageCrypto, structuralPartIds: Set<String> = []) {
        self.state = state
        self.structuralPartIds = structuralPartIds
    }

    /// `attachments` without the OpenPGP structure's parts.
    public func listed(_ attachments: [Attachment]) -> [Attachment] {
        attachments.filter { attachment in attachment.partId.map { !structuralPartIds.contains($0) } ?? true }
    }
}
