/// Runs async work one piece at a time on the main actor, in call order.
@MainActor
final class SerialTaskQueue {
    private var tail: Task<Void, Never>?

    func run(_ work: @escaping @MainActor () async -> Void) async {
        let previous = tail
        let task = Task { @MainActor in
            await previous?.value
            await work()
        }
        tail = task
        await task.value
    }
}
