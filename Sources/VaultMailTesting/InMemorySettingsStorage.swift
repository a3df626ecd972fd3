import Foundation
import VaultMailCore

/// `SettingsStorage` in memory, with a switch that makes every write fail.
public final class InMemorySettingsStorage: SettingsStorage, @unchecked Sendable {
    // @unchecked: all state is only touched under `lock`.
    private let lock = NSLock()
    private var values: [String: Data] = [:]
    private var accountValues: [String: [String: Data]] = [:]
    private var failWrites = false

    public struct WriteFailed: Error {}

    public init() {}

    public func setFailWrites(_ fail: Bool) { lock.withLock { failWrites = fail } }

    public func value(forKey key: String) throws -> Data? { lock.withLock { values[key] } }

    public func setValue(_ value: Data?, forKey key: String) throws {
        try lock.withLock {
            if failWrites { throw WriteFailed() }
            values[key] = value
        }
    }

    public func accountValues(forKey key: String) throws -> [String: Data] {
        lock.withLock { accountValues[key] ?? [:] }
    }

    public func setAccountValue(_ value: Data?, forKey key: String, accountId: String) throws {
        try lock.withLock {
            if failWrites { throw WriteFailed() }
            accountValues[key, default: [:]][accountId] = value
        }
    }

    public func removeAll() throws {
        try lock.withLock {
            if failWrites { throw WriteFailed() }
            values = [:]
            accountValues = [:]
        }
    }
}
