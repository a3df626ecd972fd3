/// Where the trackers removed from each message are counted (port; `GRDBTrackerTally` in the
/// store): one row per message, so opening a message again never counts it twice.
public protocol TrackerTally: Sendable {
    /// Keeps how many trackers were removed from the message `emailId` from `sender` (replacing
    /// what was kept for it).
    func record(emailId: String, sender: String, trackers: Int) async throws
    /// All trackers removed so far, and the senders with the most, most first (at most `limit`).
    func totals(limit: Int) async throws -> TrackerTotals
}

/// The counts of Settings → Privacy.
public struct TrackerTotals: Sendable, Equatable {
    /// One sender's count.
    public struct Sender: Sendable, Equatable {
        public var address: String
        public var trackers: Int
        public var messages: Int

        public init(address: String, trackers: Int, messages: Int) {
            self.address = address
            self.trackers = trackers
            self.messages = messages
        }
    }

    /// Trackers removed from every message opened here.
    public var trackers: Int
    /// Messages opened here that carried at least one.
    public var messages: Int
    public var senders: [Sender]

    public init(trackers: Int, messages: Int, senders: [Sender]) {
        self.trackers = trackers
        self.messages = messages
        self.senders = senders
    }
}
