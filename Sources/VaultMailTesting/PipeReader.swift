import Foundation

/// Drains the read end of a pipe on a thread of its own with blocking reads, handing each chunk
/// to `receive`, until end of file or `cancel()`.
///
/// Not `FileHandle.readabilityHandler`: tearing its dispatch read source down races libdispatch's
/// epoll bookkeeping on Linux and now and then crashes the whole process (a use-after-free in the
/// dispatch manager thread, swift-corelibs-libdispatch issue 949) — in a long test run that
/// starts hundreds of servers, it did. A blocking read never registers with libdispatch.
final class PipeReader: @unchecked Sendable {
    // @unchecked: `cancelled` and `ended` are guarded by `lock`.
    private let lock = NSLock()
    private var cancelled = false
    private var ended = false

    /// Starts reading a duplicate of `handle`'s descriptor (the reader closes its duplicate
    /// when it ends, the handle's owner closes the original).
    init(_ handle: FileHandle, receive: @escaping @Sendable (Data) -> Void) {
        let descriptor = dup(handle.fileDescriptor)
        guard descriptor >= 0 else { ended = true; return }
        Thread { [self] in drain(descriptor, into: receive) }.start()
    }

    /// Ends the reading within a tenth of a second, even while something (a server's own
    /// children) still holds the pipe's write end open.
    func cancel() { lock.withLock { cancelled = true } }

    /// Whether the reading has ended: everything written to the pipe has been received.
    var hasEnded: Bool { lock.withLock { ended } }

    private var isCancelled: Bool { lock.withLock { cancelled } }

    private func drain(_ descriptor: Int32, into receive: @Sendable (Data) -> Void) {
        defer {
            close(descriptor)
            lock.withLock { ended = true }
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !isCancelled {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 100)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            guard ready > 0 else { return }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return }  // end of file, or the pipe failed
            receive(Data(buffer[0..<count]))
        }
    }
}
