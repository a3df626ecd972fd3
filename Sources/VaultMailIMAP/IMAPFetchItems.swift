/// What to fetch besides the UID (which is always fetched).
public struct IMAPFetchItems: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let flags = IMAPFetchItems(rawValue: 1 << 0)
    /// RFC822.SIZE
    public static let size = IMAPFetchItems(rawValue: 1 << 1)
    public static let internalDate = IMAPFetchItems(rawValue: 1 << 2)
    /// The whole message, as `BODY.PEEK[HEADER]` and `BODY.PEEK[TEXT]` (neither sets `\Seen`)
    /// in a UID FETCH of its own, read outside libetpan (see `IMAPSession.fetchBodies`).
    public static let rawMessage = IMAPFetchItems(rawValue: 1 << 3)
    /// Gmail's X-GM-THRID; skipped when the server lacks X-GM-EXT-1.
    public static let gmailThreadID = IMAPFetchItems(rawValue: 1 << 4)
    /// Gmail's X-GM-MSGID; skipped when the server lacks X-GM-EXT-1.
    public static let gmailMessageID = IMAPFetchItems(rawValue: 1 << 5)
    /// MODSEQ; skipped when the server lacks CONDSTORE.
    public static let modSeq = IMAPFetchItems(rawValue: 1 << 6)

    /// Everything the initial sync needs: flags, size, internal date and the raw message.
    public static let fullMessage: IMAPFetchItems = [.flags, .size, .internalDate, .rawMessage]
    /// Everything: the full message, Gmail's ids and the mod-sequence where offered.
    public static let all: IMAPFetchItems = [.fullMessage, .gmailThreadID, .gmailMessageID, .modSeq]
}
