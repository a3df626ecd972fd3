import Foundation

/// A generative model behind a queue (AC-A-05, AC-A-06): requests run one at a time on a
/// thread of the session's own, so generation never holds up the daemon, the web app or a
/// notification. The model is loaded on first use and unloaded after a quiet period, or at
/// once when memory runs short (`ModelUnloadPolicy`, AC-P-03).
///
/// Stale requests are dropped: a newer request with the same key supersedes a queued one (and
/// stops a running one), a request whose reader went away is skipped or stopped, and when more
/// than `maxQueued` wait the oldest is dropped. A dropped request's stream ends with
/// `CancellationError`.
public final class GenerationSession<Engine: GenerativeEngine>: TextGenerator, @unchecked Sendable {
    public let modelId: String
    private let engine: Engine
    private let library: any AIModelLibrary
    private let feature: String
    private let unloading: ModelUnloadPolicy
    private let maxQueued: Int
    /// Guards everything below.
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var running: Job?
    private var worker: Thread?
    private var lastUse = Date()

    /// - Parameters:
    ///   - feature: named in the "Download a model to enable …" error.
    ///   - idleTimeout: how long the model stays in memory after its last use.
    ///   - memoryPressure: when it says memory is short, the idle model is unloaded at once.
    public init(engine: Engine, library: any AIModelLibrary, modelId: String,
                feature: String = "smart replies and summaries", idleTimeout: Duration = .seconds(30),
                memoryPressure: (any MemoryPressureSource)? = nil, maxQueued: Int = 4) {
        self.engine = engine
        self.library = library
        self.modelId = modelId
        self.feature = feature
        unloading = ModelUnloadPolicy(idleTimeout: idleTimeout, pressure: memoryPressure)
        self.maxQueued = max(1, maxQueued)
    }

    public func isAvailable() async -> Bool {
        library.installedDirectory(for: modelId).map(engine.isModelAvailable(at:)) ?? false
    }

    /// True while the model is in memory.
    public var isLoaded: Bool { engine.isModelLoaded }

    public func generate(_ request: GenerationRequest) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: String.self, throwing: (any Error).self)
        let job = Job(request: request, continuation: continuation)
        continuation.onTermination = { [weak self, weak job] _ in
            guard let self, let job else { return }
            self.condition.withLock { job.cancelled = true }
        }
        var dropped: [Job] = []
        condition.withLock {
            if let key = request.key {
                dropped = queue.filter { $0.request.key == key }
                queue.removeAll { $0.request.key == key }
                if running?.request.key == key { running?.cancelled = true }
            }
            queue.append(job)
            while queue.count > maxQueued { dropped.append(queue.removeFirst()) }
            startWorker()
            condition.signal()
        }
        for stale in dropped { stale.continuation.finish(throwing: CancellationError()) }
        return stream
    }

    /// Frees the model now (a removed model, a daemon shutting down); it waits for a running
    /// generation to end.
    public func unload() {
        engine.unload()
    }

    private func startWorker() {
        guard worker == nil else { return }
        let thread = Thread { [weak self] in self?.work() }
        thread.name = "vaultmail-generation"
        worker = thread
        thread.start()
    }

    /// The worker's loop: the next job, or the idle model's unload (`unloading`).
    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty {
                if engine.isModelLoaded {
                    let idle = Duration.seconds(Date().timeIntervalSince(lastUse))
                    if unloading.shouldUnload(idleFor: idle) {
                        engine.unload()
                        continue
                    }
                    _ = condition.wait(until: Date().addingTimeInterval(unloading.nextCheck(idleFor: idle) / .seconds(1)))
                } else {
                    condition.wait()
                }
            }
            let job = queue.removeFirst()
            running = job
            condition.unlock()

            run(job)

            condition.withLock {
                running = nil
                lastUse = Date()
            }
        }
    }

    private func run(_ job: Job) {
        guard !isCancelled(job) else {
            job.continuation.finish(throwing: CancellationError())
            return
        }
        do {
            let directory: URL
            do {
                directory = try library.loadableDirectory(for: modelId, feature: feature)
                guard engine.isModelAvailable(at: directory) else { throw AIError.modelNotInstalled(modelId: modelId, feature: feature) }
            } catch {
                engine.unload()
                throw error
            }
            try engine.load(from: directory)
            _ = try engine.generate(job.request) { piece in
                guard !isCancelled(job) else { return false }
                job.continuation.yield(piece)
                return job.request.deadline.map { ContinuousClock.now < $0 } ?? true
            }
            if isCancelled(job) {
                job.continuation.finish(throwing: CancellationError())
            } else {
                job.continuation.finish()
            }
        } catch {
            job.continuation.finish(throwing: error)
        }
    }

    private func isCancelled(_ job: Job) -> Bool {
        condition.withLock { job.cancelled }
    }

    /// A request waiting or running, with the stream it writes to.
    private final class Job: @unchecked Sendable {
        let request: GenerationRequest
        let continuation: AsyncThrowingStream<String, any Error>.Continuation
        /// Set under the session's lock.
        var cancelled = false

        init(request: GenerationRequest, continuation: AsyncThrowingStream<String, any Error>.Continuation) {
            self.request = request
            self.continuation = continuation
        }
    }
}
