import Synchronization

/// The IDLE monitor's waits between reconnections, which `retryNow(accountId:)` ends early
/// (issue 34: after `vaultmail account reauth`, the account is tried again at once instead of
/// after its backoff). A request while no wait runs ends the account's next wait at once.
final class RetryWaits: Sendable {
    private struct State {
        var waiting: [String: [Int: CheckedContinuation<Void, Never>]] = [:]
        var early: Set<String> = []
        var next = 0
    }

    private let state = Mutex(State())

    /// Waits `duration`, or until `retryNow(accountId:)`. Throws `CancellationError` when cancelled.
    func wait(_ duration: Duration, accountId: String) async throws {
        if state.withLock({ $0.early.remove(accountId) != nil }) { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Task.sleep(for: duration) }
            group.addTask { await self.signal(accountId) }
            defer { group.cancelAll() }
            try await group.next()
        }
        try Task.checkCancellation()
    }

    /// Ends the account's wait now (or its next one).
    func retryNow(accountId: String) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard let waiting = state.waiting.removeValue(forKey: accountId), !waiting.isEmpty else {
                state.early.insert(accountId)
                return []
            }
            return Array(waiting.values)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns when `retryNow(accountId:)` is called, or the task is cancelled.
    private func signal(_ accountId: String) async {
        let id = state.withLock { state in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.waiting[accountId, default: [:]][id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { $0.waiting[accountId]?.removeValue(forKey: id) }
            continuation?.resume()
        }
    }
}
