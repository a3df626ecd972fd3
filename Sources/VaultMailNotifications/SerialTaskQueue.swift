/// Runs async work one piece at a time on the main actor, in call order.
@MainActor
final class SerialTaskQueue {
    private var tail: Task<Void, Never>?

    /// Runs `work` after every piece given before it; returns its result.
    func run<Result: Sendable>(_ work: @escaping @MainActor () async -> Result) async -> Result {
        let previous = tail
        let task = Task { @MainActor in
            await previous?.value
            return await work()
        }
        tail = Task { @MainActor in _ = await task.value }
        return await task.value
    }
}
