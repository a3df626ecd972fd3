import Foundation

/// A plain HTTP/1.1 client over a loopback socket, for tests that must send what a browser
/// would not let a page send (a foreign Host, no cookie, a cross-origin POST).
public enum HTTPTestClient {
    public struct Reply: Sendable {
        public var status: Int
        /// Header names lowercased; repeated headers joined with ", ".
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Sends one request to 127.0.0.1:`port` and reads the whole reply (`Connection: close`).
    /// `host` nil sends no Host header at all.
    public static func request(port: Int, method: String = "GET", path: String, host: String? = "default",
                               headers: [(String, String)] = [], body: String? = nil) async throws -> Reply {
        var lines = ["\(method) \(path) HTTP/1.1"]
        if let host { lines.append("Host: \(host == "default" ? "127.0.0.1:\(port)" : host)") }
        lines += headers.map { "\($0.0): \($0.1)" }
        if let body { lines.append("Content-Length: \(body.utf8.count)") }
        lines.append("Connection: close")
        let raw = Data((lines.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? "")).utf8)
        // Blocking socket calls on a thread of their own: never one of the cooperative pool's
        // few threads, which the server under test needs to answer.
        let bytes = try await BlockingWork.run { try exchange(port: port, request: raw) }
        return try parse(bytes)
    }

    private static func exchange(port: Int, request: Data) throws -> Data {
        let descriptor = try connectLoopback(port: port, timeout: 30)
        defer { close(descriptor) }
        try request.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let n = send(descriptor, buffer.baseAddress! + sent, buffer.count - sent, 0)
                guard n > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
                sent += n
            }
        }
        var reply = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(descriptor, &chunk, chunk.count, 0)
            if n == 0 { break }
            guard n > 0 else { throw Failure(description: "no complete reply within 30 s (\(reply.count) bytes so far)") }
            reply.append(contentsOf: chunk[0..<n])
        }
        return reply
    }

    /// A TCP socket connected to 127.0.0.1:`port`, whose reads give up after `timeout` seconds.
    static func connectLoopback(port: Int, timeout seconds: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "nothing answers on 127.0.0.1:\(port): \(reason)")
        }
        return descriptor
    }

    private static func parse(_ data: Data) throws -> Reply {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no header block in the reply") }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line '\(head[0])'") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        var body = Data(data[split.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return Reply(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var out = Data()
        var index = data.startIndex
        while let lineEnd = data[index...].range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let end = data.index(start, offsetBy: size, limitedBy: data.endIndex) ?? data.endIndex
            out.append(data[start..<end])
            index = data.index(end, offsetBy: 2, limitedBy: data.endIndex) ?? data.endIndex
        }
        return out
    }
}

/// An open `GET /events` (server-sent events) of the web app, read as it arrives.
public final class EventStreamClient: @unchecked Sendable {
    // @unchecked: `received` is touched by one reading task at a time (waitFor awaits it).
    private let descriptor: Int32
    private var received = ""

    public init(port: Int, cookie: String) throws {
        descriptor = try HTTPTestClient.connectLoopback(port: port, timeout: 20)
        let request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
    }

    deinit { close() }

    /// Waits (at most 20 s) until `text` has arrived after what earlier calls consumed.
    public func waitFor(_ text: String) async throws {
        try await BlockingWork.run { [self] in try read(until: text) }
    }

    private func read(until text: String) throws {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(text) {
            let n = recv(descriptor, &buffer, buffer.count, 0)
            guard n > 0 else { throw HTTPTestClient.Failure(description: "no '\(text)' on the event stream within 20 s; got: \(received)") }
            received += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        received = String(received[received.range(of: text)!.upperBound...])
    }

    private var closed = false

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }
}

/// One kept-alive HTTP/1.1 connection to 127.0.0.1, as a browser keeps its few: requests one
/// after another, replies read by their Content-Length.
public final class HTTPKeptConnection: @unchecked Sendable {
    // @unchecked: used by one task at a time (each call awaits the last).
    private let descriptor: Int32
    private let port: Int
    private var buffer: [UInt8] = []

    public init(port: Int) throws {
        self.port = port
        descriptor = try HTTPTestClient.connectLoopback(port: port, timeout: 30)
    }

    deinit { close(descriptor) }

    /// GETs `path` and returns the status and the body's size.
    public func get(_ path: String, headers: [(String, String)] = []) async throws -> (status: Int, bytes: Int) {
        let request = (["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers.map { "\($0.0): \($0.1)" }).joined(separator: "\r\n") + "\r\n\r\n"
        return try await BlockingWork.run { [self] in try exchange(request) }
    }

    private func exchange(_ request: String) throws -> (status: Int, bytes: Int) {
        _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            try fill()
            headerEnd = (0...max(0, buffer.count - 4)).first { buffer.count >= 4 && Array(buffer[$0..<$0 + 4]) == separator }
        }
        let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        let total = headerEnd! + 4 + length
        while buffer.count < total { try fill() }
        buffer.removeFirst(total)
        return (status, length)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(descriptor, &chunk, chunk.count, 0)
        guard n > 0 else { throw HTTPTestClient.Failure(description: "the connection closed mid-reply") }
        buffer += chunk[0..<n]
    }
}
