import Foundation

/// Snooze times as the store keeps them (read from the server by `SnoozeServer.refresh`, written
/// by its snooze, un-snooze and wake, and by `Snooze` for a change kept while the server cannot
/// be reached), for the lists and the daemon's timer.
public protocol SnoozeRepository: Sendable {
    /// Every snoozed conversation, the soonest first, someday last.
    func snoozed() async throws -> [SnoozedConversation]
    /// The times of these conversations that are snoozed.
    func times(threadIds: [String]) async throws -> [String: SnoozeTime]
    /// The soonest wake time of any account; nil when nothing is snoozed with a time.
    func nextWake() async throws -> Date?
    /// The accounts with a snoozed message due at `now`.
    func accountsDue(at now: Date) async throws -> [String]
    /// The server's answer for the account: these stored emails (id → time) are snoozed, no
    /// other of the account's.
    func replace(accountId: String, times: [String: SnoozeTime]) async throws
    /// These emails are snoozed until `time` (the server took the snooze).
    func set(emailIds: [String], time: SnoozeTime) async throws
    /// These emails are no longer snoozed (woken or un-snoozed on the server).
    func remove(emailIds: [String]) async throws
    /// These emails came back from Snoozed at `date`: their conversations are listed as of
    /// then at least (the top of the inbox, as new mail would be).
    func cameBack(emailIds: [String], at date: Date) async throws
}
