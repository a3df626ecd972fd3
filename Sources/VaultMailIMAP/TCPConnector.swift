import Foundation

/// Opens TCP connections with a time limit, and tells loopback addresses from the rest so a
/// plain-text connection can be refused before any byte leaves the machine.
enum TCPConnector {
    enum Failure: Error, Equatable {
        case resolution(String)
        /// `.plain` was asked for but the host resolves to a non-loopback address.
        case notLoopback(addresses: [String])
        case refused(String)
        case timedOut
    }

    /// Connects to `host:port` and returns a blocking socket with TCP_NODELAY and a receive
    /// timeout of `readTimeout` (a backstop for the TLS handshake; libetpan polls with its own
    /// timeout afterwards). With `loopbackOnly`, every address the host resolves to must be a
    /// loopback address, or nothing is attempted.
    static func connect(
        host: String, port: Int, timeout: Duration, readTimeout: Duration, loopbackOnly: Bool
    ) throws(Failure) -> Int32 {
        let addresses = try resolve(host: host, port: port)
        if loopbackOnly {
            let outside = addresses.filter { !$0.isLoopback }
            if !outside.isEmpty { throw .notLoopback(addresses: outside.map(\.text)) }
        }
        let deadline = ContinuousClock.now + timeout
        var lastFailure = Failure.refused("no address to connect to")
        for address in addresses {
            do {
                return try connect(to: address, deadline: deadline, readTimeout: readTimeout)
            } catch {
                lastFailure = error
                if error == .timedOut { break }
            }
        }
        throw lastFailure
    }

    /// True when `host` is an IPv4 or IPv6 literal (no SNI is sent for those).
    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    private struct Address {
        var storage: sockaddr_storage
        var length: socklen_t
        var family: Int32

        var isLoopback: Bool {
            var copy = storage
            return withUnsafeBytes(of: &copy) { raw in
                if family == AF_INET {
                    let address = raw.load(as: sockaddr_in.self)
                    return UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
                }
                if family == AF_INET6 {
                    let address = raw.load(as: sockaddr_in6.self)
                    let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
                    let isV6Loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
                    let isMappedV4Loopback = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF
                        && bytes[11] == 0xFF && bytes[12] == 127
                    return isV6Loopback || isMappedV4Loopback
                }
                return false
            }
        }

        var text: String {
            var copy = storage
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            return withUnsafeBytes(of: &copy) { raw -> String in
                if family == AF_INET {
                    var address = raw.load(as: sockaddr_in.self).sin_addr
                    inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
                } else if family == AF_INET6 {
                    var address = raw.load(as: sockaddr_in6.self).sin6_addr
                    inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
                }
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }

    private static func resolve(host: String, port: Int) throws(Failure) -> [Address] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        // Ownership: getaddrinfo allocates `list`; freed with freeaddrinfo below.
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .resolution(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var addresses: [Address] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let socketAddress = info.pointee.ai_addr {
                var storage = sockaddr_storage()
                let length = info.pointee.ai_addrlen
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: socketAddress, count: Int(length)))
                }
                addresses.append(Address(storage: storage, length: length, family: info.pointee.ai_family))
            }
            cursor = info.pointee.ai_next
        }
        return addresses
    }

    private static func connect(to address: Address, deadline: ContinuousClock.Instant, readTimeout: Duration) throws(Failure) -> Int32 {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .refused(String(cString: strerror(errno))) }
        var keepOpen = false
        defer { if !keepOpen { close(fd) } }

        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
        }
        if result != 0 {
            guard errno == EINPROGRESS else { throw .refused(String(cString: strerror(errno))) }
            while true {
                let remaining = ContinuousClock.now.duration(to: deadline)
                if remaining <= .zero { throw .timedOut }
                var pollDescriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&pollDescriptor, 1, Int32(clamping: remaining.milliseconds))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { throw .timedOut }
                break
            }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
            if socketError != 0 { throw .refused(String(cString: strerror(socketError))) }
        }
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var receiveTimeout = timeval(tv_sec: Int(readTimeout.components.seconds), tv_usec: 0)
        if receiveTimeout.tv_sec < 1 { receiveTimeout.tv_sec = 1 }
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
        keepOpen = true
        return fd
    }
}
