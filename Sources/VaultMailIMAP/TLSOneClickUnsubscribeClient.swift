import Foundation
internal import CEtPan
public import VaultMailCore

/// `OneClickUnsubscribeClient` over the same TLS connection as mail (`SecureStream`: GnuTLS,
/// the certificate verified against the system store and, for tests, a CA file) rather than an
/// HTTP library: the request is one fixed POST whose answer VaultMail reads only the status
/// line of, never following a redirect and never sending cookies, so URLSession (which cannot
/// be given a CA file on Linux and follows redirects by default) and AsyncHTTPClient (NIOSSL
/// and HTTP/2 added to every build) would each bring more than they give here.
///
/// The request is exactly RFC 8058 §3.1's:
/// ```
/// POST /path?query HTTP/1.1
/// Host: example.com
/// Content-Type: application/x-www-form-urlencoded
/// Content-Length: 26
/// Connection: close
///
/// List-Unsubscribe=One-Click
/// ```
/// No Cookie, Authorization (a user:password in the URL is not sent), Referer or User-Agent.
/// Only https: plain http is refused because the request, and the token in its URL that
/// identifies the recipient, would travel readable and changeable by anyone on the way.
public struct TLSOneClickUnsubscribeClient: OneClickUnsubscribeClient {
    /// The body RFC 8058 §3.1 prescribes.
    public static let body = "List-Unsubscribe=One-Click"

    let caFile: String?
    let timeout: Duration

    /// - Parameters:
    ///   - caFile: a PEM file of CA certificates trusted besides the system store (tests).
    ///   - timeout: for the connection, the TLS handshake and the answer, each.
    public init(caFile: String? = nil, timeout: Duration = .seconds(20)) {
        self.caFile = caFile
        self.timeout = timeout
    }

    /// Why the one-click request could not be made, in words (never the URL's query, which
    /// identifies the recipient).
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public func postOneClick(to url: URL) async throws -> Int {
        guard url.scheme?.lowercased() == "https" else {
            throw Failure(description: "only https is used for one-click unsubscribe: over \(url.scheme ?? "this scheme") "
                + "the request would travel unencrypted")
        }
        guard let host = url.host, !host.isEmpty else { throw Failure(description: "the address names no host") }
        let endpoint = ServerEndpoint<HTTPS>(
            host: host, port: url.port ?? 443, security: .tls, caFile: caFile, connectTimeout: timeout, readTimeout: timeout)
        let request = Array(Self.request(for: url).utf8)
        return try await withCheckedThrowingContinuation { continuation in
            // The stream blocks (libetpan): on a thread of its own, not the cooperative pool.
            Thread {
                continuation.resume(with: Result { try Self.exchange(request, endpoint) })
            }.start()
        }
    }

    /// The request's bytes for `url` (RFC 8058 §3.1).
    public static func request(for url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let host = url.host ?? ""
        let hostField = (host.contains(":") ? "[\(host)]" : host) + (url.port.map { $0 == 443 ? "" : ":\($0)" } ?? "")
        return "POST \(target) HTTP/1.1\r\n"
            + "Host: \(hostField)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n"
            + "\r\n"
            + body
    }

    /// The status code of an HTTP/1.x status line ("HTTP/1.1 200 OK" → 200).
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else { return nil }
        return code
    }

    private static func exchange(_ request: [UInt8], _ endpoint: ServerEndpoint<HTTPS>) throws -> Int {
        let stream: UnsafeMutablePointer<mailstream>
        do {
            stream = try SecureStream.open(endpoint)
        } catch {
            throw Failure(description: "cannot \(error.operation) \(endpoint.address): \(error.reason)")
        }
        // Ownership: the stream owns its socket and TLS session; closing frees them all.
        defer { mailstream_close(stream) }
        guard mailstream_write(stream, request, request.count) == request.count, mailstream_flush(stream) == 0 else {
            throw Failure(description: "the connection to \(endpoint.address) was lost while sending the request")
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 8_192 {
            guard mailstream_read(stream, &byte, 1) == 1 else {
                throw Failure(description: "\(endpoint.address) closed the connection or did not answer within "
                    + "\(endpoint.readTimeout.wholeSecondsAtLeastOne) s")
            }
            if byte == UInt8(ascii: "\n") { break }
            if byte != UInt8(ascii: "\r") { line.append(byte) }
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let code = statusCode(text) else {
            throw Failure(description: "\(endpoint.address) did not answer in HTTP (\"\(text.prefix(60))\")")
        }
        return code
    }
}

/// HTTPS over the shared secure connection, for `TLSOneClickUnsubscribeClient` only (no login,
/// no session: one request, one status line).
public enum HTTPS: MailProtocol {
    public static let name = "HTTPS"
    public static let implicitTLSPort = 443
    public static let startTLSPort = 443
    public static let defaultReadTimeout = Duration.seconds(20)
    public static let timeoutAdvice = "try again later"
    public typealias ErrorKind = SMTP.ErrorKind

    public static func isLoginRefused(_ error: ServerError<HTTPS>) -> Bool { false }
}
