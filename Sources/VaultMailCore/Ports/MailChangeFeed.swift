/// Tells whoever shows mail that the store changed (mail arrived, flags changed, mail moved or
/// left), right after the change was committed, so a view can read it again.
public protocol MailChangeFeed: Sendable {
    /// One element per committed change (bursts may be merged); ends when the caller stops
    /// iterating.
    func changes() -> AsyncStream<Void>
}
