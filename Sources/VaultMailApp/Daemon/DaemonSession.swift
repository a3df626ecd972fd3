import Foundation
import VaultMailStore

/// What the last daemon on this home recorded about its run, so `vaultmail notify why` can
/// say truthfully why mail was never evaluated: when it started and stopped, and from which
/// store mark on it evaluates each account's mail (`GRDBNotificationLedger.storeMark()`):
/// mail stored at or below an account's mark was already there (or came with the daemon's
/// first, silent sync of the account); mail above it is evaluated, whoever stored it.
public struct DaemonSession: Codable, Sendable, Equatable {
    public var pid: Int32
    public var startedAt: Date
    /// Account id → the store mark from which the daemon evaluates the account's mail.
    public var accountMarks: [String: Int64]
    public var stoppedAt: Date?
    /// The store mark when the daemon stopped: mail above it was stored with no daemon running.
    public var stoppedMark: Int64?

    public init(pid: Int32, startedAt: Date, accountMarks: [String: Int64] = [:]) {
        self.pid = pid
        self.startedAt = startedAt
        self.accountMarks = accountMarks
    }

    static let key = "daemon.session"

    /// The record in the store's settings, or nil when no daemon has run on this store
    /// (or the record cannot be read).
    public static func load(from storage: GRDBSettingsStorage) -> DaemonSession? {
        guard let data = try? storage.value(forKey: key) else { return nil }
        return try? JSONDecoder().decode(DaemonSession.self, from: data)
    }

    public func save(to storage: GRDBSettingsStorage) throws {
        try storage.setValue(try JSONEncoder().encode(self), forKey: Self.key)
    }
}
