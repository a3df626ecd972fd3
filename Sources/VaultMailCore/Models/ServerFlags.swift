/// The flags the server reports for the message with `uid` in a folder: what sync copies
/// into the store (`\Seen` → `isRead`, `\Flagged` → `isStarred`).
public struct ServerFlags: Sendable, Hashable {
    public var uid: UInt32
    public var isRead: Bool
    public var isStarred: Bool

    public init(uid: UInt32, isRead: Bool, isStarred: Bool) {
        self.uid = uid
        self.isRead = isRead
        self.isStarred = isStarred
    }
}
