/// The application service for the tracker shield (issue 30; ARCHITECTURE.md, "The application
/// layer"): the shield a face sanitizes mail with, and the counts of what it removed, per
/// message (kept once), per sender and overall. Faces call it; none decides what a tracker is.
public struct Privacy: Sendable {
    /// The rule: what a tracker is, in images, CSS and links.
    public let shield: TrackerShield
    private let tally: (any TrackerTally)?
    /// The daemon's image proxy (fetches the images a message may show); nil where there is
    /// none (the page then loads nothing remote).
    public var images: RemoteImages?

    public init(shield: TrackerShield, tally: (any TrackerTally)? = nil) {
        self.shield = shield
        self.tally = tally
    }

    /// Counts what was removed from the message `emailId` from `sender` (once per message:
    /// opening it again replaces its count). Messages without trackers are not kept.
    public func record(emailId: String, sender: String, findings: [TrackerFinding]) async {
        guard let tally, !findings.isEmpty else { return }
        try? await tally.record(emailId: emailId, sender: sender.lowercased(), trackers: findings.count)
    }

    /// The counts so far (nothing when none are kept), with the `limit` senders with the most.
    public func totals(limit: Int = 10) async -> TrackerTotals {
        (try? await tally?.totals(limit: limit)) ?? TrackerTotals(trackers: 0, messages: 0, senders: [])
    }

    /// What a message's list of removed trackers shows: each host and kind once, with how many,
    /// in the order first met.
    public static func grouped(_ findings: [TrackerFinding]) -> [(finding: TrackerFinding, count: Int)] {
        var order: [TrackerFinding] = []
        var counts: [TrackerFinding: Int] = [:]
        for finding in findings {
            if counts[finding] == nil { order.append(finding) }
            counts[finding, default: 0] += 1
        }
        return order.map { ($0, counts[$0] ?? 0) }
    }
}
