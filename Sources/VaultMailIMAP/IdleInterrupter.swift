import Foundation
import Synchronization

/// Lets any task end a running IDLE at once: a self-pipe whose read end the IDLE loop polls
/// next to the socket. It lives as long as its connection, so `stop()` never touches freed
/// libetpan memory.
final class IdleInterrupter: Sendable {
    private struct State {
        var isIdling = false
        /// The server accepted IDLE (its continuation arrived).
        var isEstablished = false
        /// A stop asked for while no IDLE ran: the next IDLE returns at once.
        var stopPending = false
    }

    private let state = Mutex(State())
    /// The read end, polled by the IDLE loop.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    struct Failure: Error {
        var errno: Int32
    }

    init() throws(Failure) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw Failure(errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
        }
        readDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// True while the server is in IDLE for us (from its continuation until DONE).
    var isEstablished: Bool {
        state.withLock { $0.isEstablished }
    }

    /// Records that the server accepted IDLE.
    func markEstablished() {
        state.withLock { $0.isEstablished = true }
    }

    /// Ends the running IDLE, or makes the next one return at once when none runs.
    func stop() {
        state.withLock { state in
            if state.isIdling {
                var byte: UInt8 = 1
                _ = write(writeDescriptor, &byte, 1)
            } else {
                state.stopPending = true
            }
        }
    }

    /// Marks an IDLE as running. Returns false (and clears the request) when a stop is pending.
    func begin() -> Bool {
        state.withLock { state in
            drain()
            if state.stopPending {
                state.stopPending = false
                return false
            }
            state.isIdling = true
            return true
        }
    }

    /// Marks the IDLE as over. `stoppedByRequest` says the IDLE ended because of `stop()`;
    /// otherwise a stop that arrived while it was ending is kept for the next IDLE.
    func end(stoppedByRequest: Bool) {
        state.withLock { state in
            state.isIdling = false
            state.isEstablished = false
            if drain() && !stoppedByRequest { state.stopPending = true }
        }
    }

    /// Empties the pipe; true when it held a stop request.
    @discardableResult
    private func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var found = false
        while read(readDescriptor, &buffer, buffer.count) > 0 { found = true }
        return found
    }
}
