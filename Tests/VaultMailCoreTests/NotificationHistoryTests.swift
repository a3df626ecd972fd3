import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Core's `NotificationHistory`, without any door: "why was I (not) notified?" and the latest
/// decisions, read the same by `vaultmail notify why|log` and Settings → Notifications (issue 28).
@Suite("NotificationHistory: the engine's decisions, read once for every door (issue 28)")
struct NotificationHistoryTests {
    @Test("Why it did (not) notify: one message's decision and its rule; the latest first, as many as asked; none recorded is nil")
    func decisions() async throws {
        let ledger = InMemoryNotificationLedger()
        let account = MailFixtures.account()
        let first = MailFixtures.email(accountId: account.id, number: 1)
        let second = MailFixtures.email(accountId: account.id, number: 2)
        try await ledger.record([
            NotificationDecision(email: first, decidedAt: MailFixtures.referenceDate, outcome: .suppressed, rule: .quietHours),
            NotificationDecision(email: second, decidedAt: MailFixtures.referenceDate.addingTimeInterval(60), outcome: .notified, rule: .allFilters),
        ])
        let history = NotificationHistory(ledger: ledger)
        let decision = try #require(try await history.decision(emailId: first.id))
        #expect(decision.outcome == .suppressed && decision.rule == .quietHours)
        #expect(try await history.decision(emailId: "never-seen") == nil)
        #expect(try await history.recent(limit: 10).map(\.emailId) == [second.id, first.id])
        #expect(try await history.recent(limit: 1).map(\.emailId) == [second.id])
    }
}
