import Dispatch

/// The threads model inference runs on: a few serial dispatch queues, outside Swift's
/// cooperative thread pool, which a forward pass (tens of milliseconds of CPU) would
/// otherwise hold. OpenBLAS runs single-threaded inside each (`BLASLibrary` sets it so): the
/// workers are the parallelism.
final class InferenceWorkers: Sendable {
    /// The process's workers: two at most (the daemon shares the machine with sync and the web app).
    static let shared = InferenceWorkers(count: 2)

    private let queues: [DispatchQueue]

    /// How many jobs run at once.
    var count: Int { queues.count }

    init(count: Int) {
        queues = (0..<max(1, count)).map { DispatchQueue(label: "vaultmail.ai.inference.\($0)", qos: .utility) }
    }

    /// Runs `work` on worker `index` (modulo `count`) and returns its result.
    func run<Result: Sendable>(on index: Int, _ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queues[index % queues.count].async {
                continuation.resume(with: Swift.Result { try work() })
            }
        }
    }
}
