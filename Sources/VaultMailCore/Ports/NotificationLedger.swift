/// The durable record of the notification engine's decisions: one per email, so an email is
/// never announced twice, even after a restart the notification server did not survive,
/// and "why was I (not) notified?" can be answered. Bounded: the oldest entries are pruned.
public protocol NotificationLedger: Sendable {
    /// Records decisions. A `notified` decision is never replaced by a later one.
    func record(_ decisions: [NotificationDecision]) async throws
    /// Records decisions about mail that came back from Snoozed (issue 33): announced anew, so
    /// they replace whatever was recorded, a `notified` decision too.
    func recordComeBack(_ decisions: [NotificationDecision]) async throws
    func decision(forEmailId emailId: String) async throws -> NotificationDecision?
    /// The newest decisions first.
    func recentDecisions(limit: Int) async throws -> [NotificationDecision]
    /// Which of these emails were already notified.
    func notifiedEmailIds(among emailIds: [String]) async throws -> Set<String>
}
