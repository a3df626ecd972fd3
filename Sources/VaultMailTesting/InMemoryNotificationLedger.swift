import Foundation
import VaultMailCore

/// A `NotificationLedger` in memory, for engine tests without a store.
public actor InMemoryNotificationLedger: NotificationLedger {
    private var decisions: [String: NotificationDecision] = [:]
    private var order: [String] = []
    public var failing = false

    public init() {}

    public struct Failure: Error {}

    public func setFailing(_ failing: Bool) { self.failing = failing }

    public func record(_ new: [NotificationDecision]) async throws {
        if failing { throw Failure() }
        for decision in new where decisions[decision.emailId]?.outcome != .notified {
            if decisions[decision.emailId] == nil { order.append(decision.emailId) }
            decisions[decision.emailId] = decision
        }
    }

    public func recordComeBack(_ new: [NotificationDecision]) async throws {
        if failing { throw Failure() }
        for decision in new {
            if decisions[decision.emailId] == nil { order.append(decision.emailId) }
            decisions[decision.emailId] = decision
        }
    }

    public func decision(forEmailId emailId: String) async throws -> NotificationDecision? {
        decisions[emailId]
    }

    public func recentDecisions(limit: Int) async throws -> [NotificationDecision] {
        Array(order.reversed().prefix(limit).compactMap { decisions[$0] })
    }

    public func notifiedEmailIds(among emailIds: [String]) async throws -> Set<String> {
        if failing { throw Failure() }
        return Set(emailIds.filter { decisions[$0]?.outcome == .notified })
    }

    public var all: [NotificationDecision] { order.compactMap { decisions[$0] } }
}
