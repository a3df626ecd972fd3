import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A serial executor with one thread of its own, for an actor that owns a C handle: every job
/// of the actor runs on that thread, so a library's blocking calls (libetpan's reads and
/// writes) hold up this thread only, never Swift's shared pool, and a library that must only
/// ever be used from one thread (sd-bus) gets one.
///
/// Between jobs the thread sleeps until the next job, or, once the owner gave it work of its
/// own (`runBetweenJobs`), runs that work after every batch of jobs and then waits for the
/// file descriptor the work names (sd-bus dispatches its callbacks there) or for the next job,
/// whichever comes first. The thread blocks SIGPIPE for itself: a write to a socket the other
/// side has closed fails with EPIPE instead of killing the process.
///
/// ```swift
/// actor Connection {
///     private nonisolated let executor = OwnerThreadExecutor(name: "imap example.org:993")
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
///     deinit { executor.shutDown() }
/// }
/// ```
public final class OwnerThreadExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked Sendable: `jobs`, `isRunning`, `ownerThread`, `betweenJobs` and `wakePipe` are
    // only touched with `condition` locked; the pipe's descriptors are closed by the thread when it ends.

    /// What the thread waits for after the owner's work between jobs, beside the next job.
    public struct PollRequest: Sendable, Equatable {
        /// A file descriptor to poll; -1 for none.
        public var fd: Int32
        /// The `poll` events wanted on `fd` (`POLLIN`, `POLLOUT`).
        public var events: Int16
        /// Milliseconds; -1 waits without limit.
        public var timeoutMilliseconds: Int32

        public init(fd: Int32, events: Int16, timeoutMilliseconds: Int32) {
            self.fd = fd
            self.events = events
            self.timeoutMilliseconds = timeoutMilliseconds
        }

        /// Nothing to wait for but the next job.
        public static let nextJob = PollRequest(fd: -1, events: 0, timeoutMilliseconds: -1)
    }

    /// Why `runBetweenJobs` could not set up the thread's wake-up pipe.
    public struct PipeFailure: Error, Sendable, CustomStringConvertible {
        public var errno: Int32
        public var description: String {
            "no pipe could be created (\(String(cString: strerror(errno)))); VaultMail may have run out of file descriptors: close other connections or raise `ulimit -n`"
        }
    }

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isRunning = true
    private var ownerThread: pthread_t?
    private var betweenJobs: (@Sendable () -> PollRequest)?
    /// Read and write end; written by `enqueue` to end the thread's poll when there is work between jobs.
    private var wakePipe: (read: Int32, write: Int32)?

    /// Starts the thread, named `name` (as `top -H` and debuggers show it; the kernel keeps
    /// its first 15 bytes).
    public init(name: String) {
        let thread = Thread { [self] in
            Self.nameCurrentThread(name)
            Self.blockSIGPIPE()
            run()
        }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
            if let wakePipe { Self.wake(wakePipe.write) }
        }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets `assumeIsolated` succeed on the thread outside any job (in a C library's callbacks,
    /// which run inside the work between jobs); traps anywhere else.
    public func checkIsolated() {
        let current = pthread_self()
        let onOwner = condition.withLock { ownerThread.map { pthread_equal($0, current) != 0 } ?? false }
        precondition(onOwner, "\(Thread.current.name ?? "a thread") touched state owned by another thread's C handle")
    }

    /// From now on, after every batch of jobs, the thread calls `work` and then waits for what
    /// it returns or for the next job, until `shutDown`. `work` runs on the thread (it may
    /// `assumeIsolated` to its actor) and must not block.
    public func runBetweenJobs(_ work: @escaping @Sendable () -> PollRequest) throws(PipeFailure) {
        condition.lock()
        defer { condition.unlock() }
        if wakePipe == nil { wakePipe = try Self.makePipe() }
        betweenJobs = work
        condition.signal()
    }

    /// Lets the thread finish the jobs already queued, then end, without the work between jobs.
    /// Called when the owner goes away.
    public func shutDown() {
        condition.withLock {
            isRunning = false
            betweenJobs = nil
            condition.signal()
            if let wakePipe { Self.wake(wakePipe.write) }
        }
    }

    private func run() {
        condition.withLock { ownerThread = pthread_self() }
        while true {
            condition.lock()
            if betweenJobs == nil {
                while jobs.isEmpty && isRunning && betweenJobs == nil { condition.wait() }
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            let keepRunning = isRunning
            let work = betweenJobs
            let wakeFD = wakePipe?.read ?? -1
            condition.unlock()

            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
            if !keepRunning && batch.isEmpty { break }
            guard let work else { continue }
            let request = work()
            let busy = condition.withLock { !jobs.isEmpty || !isRunning }
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: request.fd, events: request.events, revents: 0)]
            _ = poll(&fds, request.fd >= 0 ? 2 : 1, busy ? 0 : request.timeoutMilliseconds)
            var drained = [UInt8](repeating: 0, count: 64)
            while read(wakeFD, &drained, drained.count) > 0 {}
        }
        condition.withLock {
            if let wakePipe {
                close(wakePipe.read)
                close(wakePipe.write)
            }
            wakePipe = nil
        }
    }

    private static func makePipe() throws(PipeFailure) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw PipeFailure(errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
        }
        return (fds[0], fds[1])
    }

    private static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    /// The kernel's name of the calling thread. Foundation's `Thread.name` does not reach it
    /// reliably on Linux (the new thread keeps its creator's name), and Glibc does not export
    /// `pthread_setname_np`; the kernel takes the name written to the thread's `comm` file.
    private static func nameCurrentThread(_ name: String) {
        let bytes = Array(name.utf8.prefix(15))
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = write(fd, bytes, bytes.count)
        close(fd)
    }

    private static func blockSIGPIPE() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }
}
