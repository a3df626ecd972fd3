import Foundation

/// One message as UID FETCH returned it. Items that were not asked for (or that the server
/// does not offer) are nil.
public struct IMAPMessage: Sendable, Hashable {
    public var uid: UInt32
    /// The message sequence number at the time of the fetch.
    public var sequenceNumber: UInt32
    public var flags: Set<IMAPFlag>?
    /// RFC822.SIZE in bytes.
    public var size: UInt32?
    public var internalDate: Date?
    /// The message exactly as the server stores it: `BODY[HEADER]` followed by `BODY[TEXT]`,
    /// which together are `BODY[]`.
    public var rawMessage: Data?
    public var gmailThreadID: UInt64?
    public var gmailMessageID: UInt64?
    public var modSeq: UInt64?

    public init(
        uid: UInt32, sequenceNumber: UInt32, flags: Set<IMAPFlag>? = nil, size: UInt32? = nil,
        internalDate: Date? = nil, rawMessage: Data? = nil, gmailThreadID: UInt64? = nil,
        gmailMessageID: UInt64? = nil, modSeq: UInt64? = nil
    ) {
        self.uid = uid
        self.sequenceNumber = sequenceNumber
        self.flags = flags
        self.size = size
        self.internalDate = internalDate
        self.rawMessage = rawMessage
        self.gmailThreadID = gmailThreadID
        self.gmailMessageID = gmailMessageID
        self.modSeq = modSeq
    }
}
