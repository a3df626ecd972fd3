import Synchronization

/// A value tests hand to a `@Sendable` closure and read afterwards.
public final class LockedBox<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    public init(_ value: Value) {
        storage = Mutex(value)
    }

    public var value: Value { storage.withLock { $0 } }

    public func set(_ value: Value) {
        storage.withLock { $0 = value }
    }
}
