/// The application service for what the notification engine decided (ARCHITECTURE.md, "The
/// application layer"): "why was I (not) notified?" for one message, and the latest
/// decisions. The `vaultmail` tool (`notify why`, `notify log`) and the web app (Settings →
/// Notifications) both read them here (issue 28).
public struct NotificationHistory: Sendable {
    private let ledger: any NotificationLedger

    public init(ledger: any NotificationLedger) {
        self.ledger = ledger
    }

    /// The decision made for the message, or nil when none was recorded.
    public func decision(emailId: String) async throws -> NotificationDecision? {
        try await ledger.decision(forEmailId: emailId)
    }

    /// The latest `limit` decisions, newest first.
    public func recent(limit: Int) async throws -> [NotificationDecision] {
        try await ledger.recentDecisions(limit: limit)
    }
}
