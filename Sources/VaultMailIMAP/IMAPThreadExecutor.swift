import Foundation

/// A serial executor with one dedicated thread. An `IMAPConnection` runs on it, so libetpan's
/// blocking reads and writes block this thread only, never Swift's shared concurrency pool.
///
/// The thread blocks SIGPIPE for itself: a write to a socket the server has closed then fails
/// with EPIPE (which libetpan reports as a stream error) instead of killing the process.
final class IMAPThreadExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked Sendable: `jobs` and `isShutDown` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isShutDown = false

    init(name: String) {
        let thread = Thread { [self] in
            Self.blockSIGPIPE()
            run()
        }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets the thread finish the queued jobs and exit. Called when the connection goes away.
    func shutDown() {
        condition.lock()
        isShutDown = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !isShutDown { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch {
                job.runSynchronously(on: asUnownedSerialExecutor())
            }
        }
    }

    private static func blockSIGPIPE() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }
}
