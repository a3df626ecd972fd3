import Foundation
import Synchronization
import VaultMailCore

/// `AuthorizationRedirectListener` on a TCP socket bound to 127.0.0.1 on a port the kernel
/// picks (RFC 8252 §7.3). It waits (on a thread of its own, never the cooperative pool) for
/// the request to `/`, answers it with a page telling the user to go back to VaultMail, and
/// answers anything else (a favicon) with 404. `close()` ends the wait and frees the port.
/// With `returnTo` (the web app's sign-in page), the page links back to it instead.
public final class LoopbackRedirectListener: AuthorizationRedirectListener {
    public let redirectURI: URL
    public let port: Int
    public let returnTo: URL?
    /// The listening socket; -1 once closed.
    private let socket = Mutex<Int32>(-1)

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Binds 127.0.0.1 on a free port and listens.
    public init(returnTo: URL? = nil) throws {
        self.returnTo = returnTo
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "cannot listen on 127.0.0.1 for the sign-in: \(Self.lastError())") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
                bind(fd, raw, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            let reason = Self.lastError()
            Glibc.close(fd)
            throw Failure(description: "cannot listen on 127.0.0.1 for the sign-in: \(reason)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        redirectURI = URL(string: "http://127.0.0.1:\(port)/")!
        socket.withLock { $0 = fd }
    }

    deinit {
        socket.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }

    public func waitForRedirect(timeout: Duration) async throws -> [String: String] {
        let deadline = ContinuousClock.now + timeout
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { [self] in
                continuation.resume(with: Result { try self.serve(until: deadline) })
            }
            thread.name = "vaultmail-oauth-redirect"
            thread.start()
        }
    }

    public func close() async {
        socket.withLock { fd in
            if fd >= 0 {
                shutdown(fd, Int32(SHUT_RDWR))
                Glibc.close(fd)
            }
            fd = -1
        }
    }

    /// Accepts connections until one asks for `/`; its query is the answer.
    private func serve(until deadline: ContinuousClock.Instant) throws -> [String: String] {
        while true {
            let fd = socket.withLock { $0 }
            guard fd >= 0 else { throw OAuthError.timedOut(provider: "the provider", after: .zero) }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw OAuthError.timedOut(provider: "the provider", after: .zero) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(200, max(1, remaining.components.seconds * 1000 + 1))))
            guard ready > 0 else { continue }
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { continue }
            defer { Glibc.close(connection) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard let target = Self.readRequestTarget(connection) else { continue }
            let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
            guard path == "/" else {
                Self.reply(connection, status: "404 Not Found", body: "Not found.")
                continue
            }
            let query = Self.formDecode(target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? "")
            let body: String
            var head = ""
            if let returnTo {
                // Straight back to the app (a refresh from this page, so the app's SameSite=Strict
                // cookie goes along), with a link for a browser that does not follow it.
                let link = Self.escape(returnTo.absoluteString)
                body = (query["error"] == nil ? "VaultMail received your sign-in." : "The sign-in was not completed.")
                    + " <a href=\"\(link)\" id=\"back-to-vaultmail\">Back to VaultMail</a>"
                head = "<meta http-equiv=\"refresh\" content=\"0;url=\(link)\">"
            } else {
                body = query["error"] == nil
                    ? "VaultMail received your sign-in. You can close this tab and go back to VaultMail."
                    : "The sign-in was not completed. Go back to VaultMail to see why."
            }
            Self.reply(connection, status: "200 OK", body: body, head: head)
            return query
        }
    }

    /// The request target of `GET TARGET HTTP/1.1`, once the headers have arrived.
    private static func readRequestTarget(_ connection: Int32) -> String? {
        var received = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < 32_768 {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            received += chunk[0..<count]
            if received.count >= 4, String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let firstLine = String(decoding: received, as: UTF8.self).split(separator: "\r\n", maxSplits: 1).first ?? ""
        let parts = firstLine.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else { return nil }
        return String(parts[1])
    }

    private static func reply(_ connection: Int32, status: String, body: String, head: String = "") {
        let html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>VaultMail sign-in</title>\(head)</head>"
            + "<body><main><h1>VaultMail</h1><p>\(body)</p></main></body></html>"
        let response = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(html.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n" + html
        let bytes = Array(response.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// A query as a form decodes it (`+` is a space); the first of repeated names wins.
    static func formDecode(_ query: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if let name = parts.first, fields[name] == nil { fields[name] = parts.count > 1 ? parts[1] : "" }
        }
        return fields
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
