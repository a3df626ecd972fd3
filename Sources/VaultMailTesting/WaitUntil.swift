/// Waits until `condition` holds, checking it every `every` (a condition, never a fixed
/// sleep); throws naming `what` once `timeout` has passed without it.
public func waitUntil(
    _ what: String = "the condition", timeout: Duration = .seconds(60), every: Duration = .milliseconds(5),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !(try await condition()) {
        guard ContinuousClock.now < deadline else { throw WaitTimeout(what: what, timeout: timeout) }
        try await Task.sleep(for: every)
    }
}

/// `waitUntil` gave up.
public struct WaitTimeout: Error, CustomStringConvertible {
    public let what: String
    public let timeout: Duration
    public var description: String { "\(what) did not happen within \(timeout)" }
}
