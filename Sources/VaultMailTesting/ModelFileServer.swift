import Foundation

/// A small HTTP/1.1 file server on 127.0.0.1 for the model manager's tests: serves bytes by
/// path with `Range: bytes=N-` (206), records every request, and can be told, per path, to
/// ignore ranges (200 with the whole file), answer a status, close the connection after some
/// bytes, or stall (or pause) after some bytes until `releaseStalled()` (or `stop()`). Each connection is
/// served on a thread of its own with blocking sockets; `stop()` (and `deinit`) closes them all.
public final class ModelFileServer: @unchecked Sendable {
    // @unchecked: every mutable field is touched only under `condition`'s lock.

    /// How the server answers a path.
    public enum Behaviour: Sendable, Hashable {
        /// 200, or 206 from the asked offset.
        case normal
        /// Always 200 with the whole file, whatever the Range.
        case ignoreRange
        /// Sends the headers and `afterBytes` bytes of the body, then waits (connection open)
        /// until `releaseStalled()` or `stop()`, then closes.
        case stall(afterBytes: Int)
        /// Sends the headers and `afterBytes` bytes of the body, then closes the connection.
        case close(afterBytes: Int)
        /// Sends the headers and `afterBytes` bytes of the body, waits until `releaseStalled()`
        /// (counted in `stalledConnections` meanwhile), then sends the rest.
        case pause(afterBytes: Int)
        /// Answers this status with an empty body.
        case status(Int)
    }

    /// One request as it arrived.
    public struct Request: Sendable, Hashable {
        public var path: String
        /// The Range header, nil when there was none.
        public var range: String?

        public init(path: String, range: String?) {
            self.path = path
            self.range = range
        }
    }

    public let port: Int
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    private let condition = NSCondition()
    private var files: [String: Data]
    private var behaviours: [String: Behaviour] = [:]
    private var received: [Request] = []
    private var clients: Set<Int32> = []
    private var stalled = 0
    private var releases = 0
    private var stopped = false

    /// Starts serving `files` (path → bytes; paths start with "/") on a free loopback port.
    public init(files: [String: Data]) throws {
        self.files = files
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestClient.Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw HTTPTestClient.Failure(description: "cannot listen on 127.0.0.1: \(reason)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "ModelFileServer accept"
        thread.start()
    }

    deinit {
        stop()
    }

    /// Every request so far, in order.
    public var requests: [Request] { condition.withLock { received } }

    /// How many connections wait in a stall or a pause now.
    public var stalledConnections: Int { condition.withLock { stalled } }

    public func setBehaviour(_ behaviour: Behaviour, for path: String) {
        condition.withLock { behaviours[path] = behaviour }
    }

    public func setFile(_ data: Data, at path: String) {
        condition.withLock { files[path] = data }
    }

    /// Lets every connection waiting in a stall close, and every paused one go on.
    public func releaseStalled() {
        condition.withLock {
            releases += 1
            condition.broadcast()
        }
    }

    /// Stops listening and closes every connection. File descriptors are shut down under the
    /// lock and closed only by the thread that owns them (the accept loop its listener, each
    /// connection's thread its socket, also under the lock): a number closed here while another
    /// thread still used it could be given to another test's socket, and that socket shut down.
    public func stop() {
        condition.withLock {
            guard !stopped else { return }
            stopped = true
            condition.broadcast()
            for fd in clients { shutdown(fd, Int32(SHUT_RDWR)) }
            shutdown(listener, Int32(SHUT_RDWR))
        }
    }

    // MARK: Serving (threads of its own)

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let admitted = condition.withLock { () -> Bool in
                guard !stopped else { return false }
                clients.insert(fd)
                return true
            }
            guard admitted else {
                close(fd)
                return
            }
            let thread = Thread { [self] in
                serve(fd)
                condition.withLock {
                    _ = clients.remove(fd)
                    close(fd)
                }
            }
            thread.name = "ModelFileServer connection"
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while head.range(of: Data("\r\n\r\n".utf8)) == nil {
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0, head.count < 64 * 1024 else { return }
            head.append(contentsOf: chunk[0..<n])
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return }
        let path = String(parts[1])
        let range = lines.dropFirst().first { $0.lowercased().hasPrefix("range:") }
            .map { String($0.dropFirst("range:".count)).trimmingCharacters(in: .whitespaces) }
        let (data, behaviour) = condition.withLock { () -> (Data?, Behaviour) in
            received.append(Request(path: path, range: range))
            return (files[path], behaviours[path] ?? .normal)
        }
        guard let data else {
            write(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        if case .status(let code) = behaviour {
            write(fd, "HTTP/1.1 \(code) Status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        var start = 0
        if behaviour != .ignoreRange, let range, range.hasPrefix("bytes="),
           let offset = Int(range.dropFirst("bytes=".count).prefix { $0.isNumber }) {
            guard offset < data.count else {
                write(fd, "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(data.count)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            }
            start = offset
        }
        let body = data[(data.startIndex + start)...]
        var header = start > 0 ? "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(start)-\(data.count - 1)/\(data.count)\r\n" : "HTTP/1.1 200 OK\r\n"
        header += "Content-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\nAccept-Ranges: bytes\r\nConnection: close\r\n\r\n"
        write(fd, header)
        switch behaviour {
        case .stall(let afterBytes):
            write(fd, body.prefix(afterBytes))
            waitForRelease()
        case .pause(let afterBytes):
            write(fd, body.prefix(afterBytes))
            if waitForRelease() { write(fd, body.dropFirst(afterBytes)) }
        case .close(let afterBytes):
            write(fd, body.prefix(afterBytes))
        default:
            write(fd, body)
        }
    }

    /// Waits until `releaseStalled()` (true) or `stop()` (false).
    @discardableResult
    private func waitForRelease() -> Bool {
        condition.withLock {
            let release = releases
            stalled += 1
            while !stopped && releases == release { condition.wait() }
            stalled -= 1
            return !stopped
        }
    }

    private func write(_ fd: Int32, _ text: String) {
        write(fd, Data(text.utf8))
    }

    /// Sends everything or gives up quietly (the client went away); never raises SIGPIPE.
    private func write(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let n = send(fd, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                sent += n
            }
        }
    }
}
