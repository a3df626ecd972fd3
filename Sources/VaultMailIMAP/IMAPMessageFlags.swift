/// The flags of one message, from a flag sweep or a CHANGEDSINCE fetch.
public struct IMAPMessageFlags: Sendable, Hashable {
    public var uid: UInt32
    public var flags: Set<IMAPFlag>
    /// The message's mod-sequence when the server has CONDSTORE.
    public var modSeq: UInt64?

    public init(uid: UInt32, flags: Set<IMAPFlag>, modSeq: UInt64? = nil) {
        self.uid = uid
        self.flags = flags
        self.modSeq = modSeq
    }

    public var isSeen: Bool { flags.contains(.seen) }
    public var isFlagged: Bool { flags.contains(.flagged) }
    public var isDeleted: Bool { flags.contains(.deleted) }
}
