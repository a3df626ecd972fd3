import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailTesting

/// The image proxy's HTTP client (issue 30) against a real local server that records each
/// request: no cookie ever sent back, no `Referer`, the shared `User-Agent`; a redirect is handed
/// back, not followed; a body over the limit is cut off.
@Suite("The daemon's image fetcher: no cookies, no referer, no redirects followed, size-capped (issue 30)")
struct URLSessionImageFetcherTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 200))

    @Test("Two fetches from a server that sets a cookie: neither sends one back; the headers name no browser and no page")
    func noCookiesNoReferer() async throws {
        let server = try await RecordingHTTPSServer(plainFiles: ["/logo.png": (Self.png, "image/png; charset=binary")])
        defer { server.stop() }
        let fetcher = URLSessionImageFetcher()
        let url = URL(string: "http://127.0.0.1:\(server.port)/logo.png")!
        for _ in 0..<2 {
            let response = try await fetcher.fetch(url, maxBytes: 10_000)
            #expect(response.status == 200 && response.contentType == "image/png" && response.body == Self.png)
        }
        let requests = try await server.waitForRequests(count: 2)
        for request in requests {
            #expect(request.header("Cookie") == nil, "\(request.headers)")
            #expect(request.header("Referer") == nil, "\(request.headers)")
            #expect(request.header("User-Agent") == URLSessionImageFetcher.userAgent, "\(request.headers)")
            #expect(request.header("Accept")?.hasPrefix("image/") == true, "\(request.headers)")
        }
    }

    @Test("A redirect comes back as it was answered (status and Location), with one request made")
    func redirectNotFollowed() async throws {
        let server = try await RecordingHTTPSServer(plainFiles: ["/logo.png": (Self.png, "image/png")],
                                                    statuses: ["/moved.png": (302, "/logo.png")])
        defer { server.stop() }
        let response = try await URLSessionImageFetcher().fetch(URL(string: "http://127.0.0.1:\(server.port)/moved.png")!, maxBytes: 10_000)
        #expect(response.status == 302 && response.location == "/logo.png")
        // The recorder reports each request on its own output, which may arrive after the answer did.
        #expect(try await server.waitForRequests(count: 1).map(\.target) == ["/moved.png"])
    }

    @Test("A body over the limit is refused, not kept; an unreachable server is said in words without its address's path")
    func limits() async throws {
        let server = try await RecordingHTTPSServer(plainFiles: ["/huge.png": (Data(repeating: 1, count: 300_000), "image/png")])
        defer { server.stop() }
        let fetcher = URLSessionImageFetcher()
        await #expect(throws: RemoteImageError.tooLarge(limit: 100_000)) {
            try await fetcher.fetch(URL(string: "http://127.0.0.1:\(server.port)/huge.png")!, maxBytes: 100_000)
        }
        // A port nobody listens on: the server's own, once stopped.
        let port = server.port
        server.stop()
        await #expect(throws: RemoteImageError.unreachable(host: "127.0.0.1", reason: "no connection")) {
            try await fetcher.fetch(URL(string: "http://127.0.0.1:\(port)/secret-token.png")!, maxBytes: 100_000)
        }
    }
}
