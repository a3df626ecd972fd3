import Foundation
import Synchronization
import Testing
import VaultMailCore
#if canImport(Glibc)
import Glibc
#endif

/// The one executor every C handle's actor runs on (IMAP and SMTP connections, the D-Bus
/// connection): one thread of its own, jobs in order, the owner's work between jobs.
@Suite("OwnerThreadExecutor: one thread per C handle", .timeLimit(.minutes(5)))
struct OwnerThreadExecutorTests {
    /// An actor that owns a (pretend) C handle, as `IMAPConnection` and `DBusConnection` do.
    actor Owner {
        nonisolated let executor: OwnerThreadExecutor
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        private(set) var log: [Int] = []

        init(name: String) { executor = OwnerThreadExecutor(name: name) }

        deinit { executor.shutDown() }

        /// The thread the job runs on, and the job's number appended to `log`.
        func record(_ number: Int) -> pthread_t {
            log.append(number)
            return pthread_self()
        }

        /// The name the kernel knows the job's thread by (`top -H`, debuggers).
        func threadName() -> String? {
            (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
        }

        /// Whether SIGPIPE is blocked on the thread the job runs on.
        func sigpipeBlocked() -> Bool {
            var current = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &current)
            return sigismember(&current, SIGPIPE) == 1
        }

        /// A write to a pipe whose read end is closed: the errno it fails with.
        func writeToClosedPipe() -> Int32 {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return -1 }
            close(fds[0])
            defer { close(fds[1]) }
            var byte: UInt8 = 1
            return write(fds[1], &byte, 1) < 0 ? errno : 0
        }

        func readAll(_ fd: Int32) -> Int {
            var buffer = [UInt8](repeating: 0, count: 64)
            var total = 0
            while true {
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { return total }
                total += count
            }
        }
    }

    @Test("Every job of the owning actor runs on its one named thread, in the order it was sent")
    func oneThreadInOrder() async throws {
        let owner = Owner(name: "owner-jobs")
        var threads: [pthread_t] = []
        for number in 0..<50 { threads.append(await owner.record(number)) }
        #expect(threads.allSatisfy { pthread_equal($0, threads[0]) != 0 })
        #expect(pthread_equal(threads[0], pthread_self()) == 0)
        #expect(await owner.log == Array(0..<50))
        let name = await owner.threadName()
        #expect(name == "owner-jobs")
        // Many tasks at once: still one thread, each job whole.
        let concurrent = await withTaskGroup(of: pthread_t.self) { group in
            for number in 50..<100 { group.addTask { await owner.record(number) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(concurrent.allSatisfy { pthread_equal($0, threads[0]) != 0 })
        #expect(await owner.log.sorted() == Array(0..<100))
    }

    @Test("The thread blocks SIGPIPE: a write to a closed peer fails with EPIPE instead of killing the process")
    func sigpipeBlocked() async {
        let owner = Owner(name: "owner-sigpipe")
        #expect(await owner.sigpipeBlocked())
        #expect(await owner.writeToClosedPipe() == EPIPE)
    }

    @Test("Work between jobs runs on the thread, wakes for its descriptor, and a new job ends its wait at once")
    func workBetweenJobs() async throws {
        let owner = Owner(name: "owner-poll")
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL, 0) | O_NONBLOCK)
        let readEnd = fds[0]
        let seen = Seen()
        try owner.executor.runBetweenJobs { [weak owner] in
            guard let owner else { return .nextJob }
            // Outside any job, on the owner's thread: assumeIsolated holds (as in sd-bus's callbacks).
            let bytes = owner.assumeIsolated { $0.readAll(readEnd) }
            seen.state.withLock { $0.calls += 1; $0.bytes += bytes }
            // Waits for the descriptor without a time limit: only the descriptor or a job wakes it.
            return .init(fd: readEnd, events: Int16(POLLIN), timeoutMilliseconds: -1)
        }
        _ = await owner.record(1)
        try await Self.waitUntil { seen.state.withLock { $0.calls } >= 1 }

        var byte: UInt8 = 7
        _ = write(fds[1], &byte, 1)
        try await Self.waitUntil { seen.state.withLock { $0.bytes } == 1 }

        let started = ContinuousClock.now
        _ = await owner.record(2)
        // The wait has no time limit: a job it did not end would never run. The margin is for a
        // loaded 2-core machine.
        #expect(ContinuousClock.now - started < .seconds(30), "a job is not held up by the wait between jobs")
        #expect(await owner.log == [1, 2])
    }

    /// What the work between jobs saw.
    final class Seen: Sendable {
        let state = Mutex((calls: 0, bytes: 0))
    }

    static func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition did not hold within 10 s")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
