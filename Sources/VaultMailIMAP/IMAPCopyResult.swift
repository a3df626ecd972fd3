/// Where copied or moved messages landed, from the COPYUID response code (UIDPLUS).
public struct IMAPCopyResult: Sendable, Hashable {
    /// The destination mailbox's UIDVALIDITY.
    public var uidValidity: UInt32
    /// Source UID → UID in the destination mailbox.
    public var uidMapping: [UInt32: UInt32]

    public init(uidValidity: UInt32, uidMapping: [UInt32: UInt32]) {
        self.uidValidity = uidValidity
        self.uidMapping = uidMapping
    }
}
