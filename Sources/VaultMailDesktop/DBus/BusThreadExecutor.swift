import Foundation
internal import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// What the bus wants the loop to wait for next.
struct PollRequest {
    var fd: Int32
    var events: Int16
    /// Milliseconds; -1 waits without limit.
    var timeoutMilliseconds: Int32

    static let idle = PollRequest(fd: -1, events: 0, timeoutMilliseconds: -1)
}

/// A serial executor that owns one thread. Between actor jobs the thread runs the bus's
/// event loop: it calls `pump` (which processes everything sd-bus has ready) and then polls
/// the bus's file descriptor together with an eventfd that `enqueue` writes to. So every
/// job of the actor and every sd-bus callback run on this one thread, as sd-bus requires.
final class BusThreadExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `running` and `loopThread` are guarded by `lock`;
    // `pump` is set once before the first job and only called on the loop thread.
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private var running = true
    private var loopThread: pthread_t?
    private let wakeFD: Int32
    var pump: (() -> PollRequest)?

    init(name: String) {
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: UnownedJob) {
        lock.withLock { jobs.append(job) }
        wake()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets `assumeIsolated` succeed inside sd-bus callbacks, which run on the loop thread
    /// outside any job.
    func checkIsolated() {
        let current = pthread_self()
        let onLoop = lock.withLock { loopThread.map { pthread_equal($0, current) != 0 } ?? false }
        precondition(onLoop, "D-Bus state touched off the bus thread")
    }

    /// Stops the loop after the jobs already queued.
    func shutdown() {
        lock.withLock { running = false }
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wakeFD, $0.baseAddress, 8) }
    }

    private func loop() {
        lock.withLock { loopThread = pthread_self() }
        while true {
            let (batch, keepRunning) = lock.withLock { () -> ([UnownedJob], Bool) in
                defer { jobs.removeAll(keepingCapacity: true) }
                return (jobs, running)
            }
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
            if !keepRunning && batch.isEmpty { break }
            let request = pump?() ?? .idle
            let busy = lock.withLock { !jobs.isEmpty || !running }
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: request.fd, events: request.events, revents: 0)]
            _ = poll(&fds, request.fd >= 0 ? 2 : 1, busy ? 0 : request.timeoutMilliseconds)
            var drained: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &drained) { read(wakeFD, $0.baseAddress, 8) }
        }
        close(wakeFD)
    }
}
