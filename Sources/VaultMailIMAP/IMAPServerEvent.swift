/// Something the server reported on its own, during IDLE or in answer to NOOP.
public enum IMAPServerEvent: Sendable, Hashable {
    /// The mailbox now holds `count` messages (new mail when it grew).
    case exists(count: UInt32)
    /// The message with this sequence number was expunged; later numbers shift down by one.
    case expunged(sequenceNumber: UInt32)
    /// These UIDs were expunged (QRESYNC servers send VANISHED instead of EXPUNGE).
    case vanished(uids: [UInt32])
    /// A message's flags changed. `uid` and `modSeq` are present when the server includes them.
    case flagsChanged(sequenceNumber: UInt32, uid: UInt32?, flags: Set<IMAPFlag>, modSeq: UInt64?)
    /// An untagged STATUS: under NOTIFY (RFC 5465), another mailbox than the selected one
    /// changed (new mail, an expunge, flags); also the answer to a STATUS command.
    case mailboxStatus(IMAPStatusResponse)
    /// `* OK [NOTIFICATIONOVERFLOW]`: the server stopped sending NOTIFY events for this
    /// connection (RFC 5465 §5.8); the client must find changes some other way.
    case notificationOverflow
}
