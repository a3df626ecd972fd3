/// What a STATUS response (RFC 3501 §7.2.4) reported about a mailbox: in answer to
/// `IMAPConnection.status(_:)`, or on its own under NOTIFY (RFC 5465) when another mailbox
/// changed. Each count is nil when the response did not include it (a NOTIFY status after a
/// flag change may carry UNSEEN alone).
public struct IMAPStatusResponse: Sendable, Hashable {
    /// The mailbox name, decoded from modified UTF-7; `INBOX` in any case becomes `INBOX`.
    public var mailbox: String
    /// MESSAGES: how many messages the mailbox holds.
    public var messages: UInt32?
    /// UIDNEXT: the UID the next message will get.
    public var uidNext: UInt32?
    public var uidValidity: UInt32?
    /// UNSEEN: how many messages lack `\Seen`.
    public var unseen: UInt32?
    /// HIGHESTMODSEQ (CONDSTORE): changes with every new message, flag change and expunge.
    public var highestModSeq: UInt64?

    public init(
        mailbox: String, messages: UInt32? = nil, uidNext: UInt32? = nil, uidValidity: UInt32? = nil,
        unseen: UInt32? = nil, highestModSeq: UInt64? = nil
    ) {
        self.mailbox = mailbox
        self.messages = messages
        self.uidNext = uidNext
        self.uidValidity = uidValidity
        self.unseen = unseen
        self.highestModSeq = highestModSeq
    }
}
