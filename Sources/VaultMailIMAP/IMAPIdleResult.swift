/// How one IDLE ended and what the server reported meanwhile.
public struct IMAPIdleResult: Sendable, Hashable {
    public enum Ending: Sendable, Hashable {
        /// The server reported events.
        case events
        /// `stopIdle()` was called, or the calling task was cancelled.
        case stopped
        /// The time limit passed (renew IDLE before servers drop it, at most every 29 minutes).
        case timeout
    }

    /// Events in the order the server sent them, including those that arrived while DONE was
    /// being answered.
    public var events: [IMAPServerEvent]
    public var ending: Ending

    public init(events: [IMAPServerEvent], ending: Ending) {
        self.events = events
        self.ending = ending
    }
}
