/// What SELECT or EXAMINE reported about a mailbox.
public struct IMAPMailboxStatus: Sendable, Hashable {
    public var mailbox: String
    public var uidValidity: UInt32
    /// The UID the next message will get; 0 when the server did not say.
    public var uidNext: UInt32
    /// How many messages the mailbox holds.
    public var exists: UInt32
    /// The highest mod-sequence (CONDSTORE); nil when the server has none for this mailbox.
    public var highestModSeq: UInt64?
    /// False after EXAMINE or when the server opened the mailbox read-only.
    public var isReadWrite: Bool
    /// The flags that can be stored permanently.
    public var permanentFlags: Set<IMAPFlag>

    public init(
        mailbox: String, uidValidity: UInt32, uidNext: UInt32, exists: UInt32, highestModSeq: UInt64?,
        isReadWrite: Bool, permanentFlags: Set<IMAPFlag>
    ) {
        self.mailbox = mailbox
        self.uidValidity = uidValidity
        self.uidNext = uidNext
        self.exists = exists
        self.highestModSeq = highestModSeq
        self.isReadWrite = isReadWrite
        self.permanentFlags = permanentFlags
    }
}
