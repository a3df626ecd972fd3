import Foundation
import Synchronization
import Testing
import VaultMailCore

/// The daemon's image proxy's rule (issue 30), in Core: what is fetched, how redirects are
/// decided, what is kept, and the cache by content. The fetcher here is a table of answers (the
/// port's contract); `URLSessionImageFetcherTests` and `WebAppShieldTests` run the real one.
@Suite("Remote images through the daemon: trackers refused at every hop, images cached by content (issue 30)")
struct RemoteImagesTests {
    /// Answers from a table by URL and counts what was asked.
    final class TableFetcher: RemoteImageFetcher {
        let answers: [String: RemoteImageResponse]
        let asked = Mutex<[String]>([])

        init(_ answers: [String: RemoteImageResponse]) { self.answers = answers }

        func fetch(_ url: URL, maxBytes: Int) async throws -> RemoteImageResponse {
            asked.withLock { $0.append(url.absoluteString) }
            return answers[url.absoluteString] ?? RemoteImageResponse(status: 404)
        }
    }

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])

    static func shield() -> TrackerShield {
        var rules = TrackerRules()
        FilterListParser.parse("||tracker.example^", into: &rules)
        return TrackerShield(rules: rules, status: .on(version: "test", files: [], filters: rules.filterCount, parameters: 0))
    }

    static func proxy(_ fetcher: TableFetcher, capacity: Int = 1_000_000) -> (RemoteImages, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("image-cache-\(UUID().uuidString)")
        return (RemoteImages(shield: shield(), fetcher: fetcher, cache: RemoteImageCache(directory: directory, capacity: capacity)), directory)
    }

    @Test("An image is fetched once: asked again, and under another address with the same bytes, it comes from one cached copy")
    func cachedByContent() async throws {
        let fetcher = TableFetcher([
            "https://cdn.shop.example/logo.png": RemoteImageResponse(status: 200, contentType: "image/png", body: Self.png),
            "https://img.shop.example/logo-copy.png": RemoteImageResponse(status: 200, contentType: "image/png", body: Self.png),
        ])
        let (images, directory) = Self.proxy(fetcher)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await images.image("https://cdn.shop.example/logo.png") == RemoteImage(data: Self.png, contentType: "image/png"))
        #expect(try await images.image("https://cdn.shop.example/logo.png").data == Self.png)
        #expect(try await images.image("https://img.shop.example/logo-copy.png").data == Self.png)
        #expect(fetcher.asked.withLock { $0 } == ["https://cdn.shop.example/logo.png", "https://img.shop.example/logo-copy.png"])
        let stored = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("content").path)
        #expect(stored.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("A tracker's address is never fetched; a redirect to one is refused at that hop and the address is not asked again")
    func trackersAtEveryHop() async throws {
        let fetcher = TableFetcher([
            "https://cdn.shop.example/banner.png": RemoteImageResponse(status: 302, location: "https://tracker.example/open?u=1"),
            "https://cdn.shop.example/moved.png": RemoteImageResponse(status: 301, location: "/images/photo.png"),
            "https://cdn.shop.example/images/photo.png": RemoteImageResponse(status: 200, contentType: "image/jpeg", body: Self.png),
        ])
        let (images, directory) = Self.proxy(fetcher)
        defer { try? FileManager.default.removeItem(at: directory) }
        await #expect(throws: RemoteImageError.tracker(host: "tracker.example")) { try await images.image("https://tracker.example/p.gif") }
        await #expect(throws: RemoteImageError.tracker(host: "tracker.example")) { try await images.image("https://cdn.shop.example/banner.png") }
        await #expect(throws: RemoteImageError.tracker(host: "tracker.example")) { try await images.image("https://cdn.shop.example/banner.png") }
        // A relative redirect to an ordinary image is followed.
        #expect(try await images.image("https://cdn.shop.example/moved.png").contentType == "image/jpeg")
        #expect(fetcher.asked.withLock { $0 } == ["https://cdn.shop.example/banner.png", "https://cdn.shop.example/moved.png",
                                                  "https://cdn.shop.example/images/photo.png"])
    }

    @Test("Only images are kept; an error status, a loop of redirects and a non-web address say what happened")
    func whatIsRefused() async throws {
        let fetcher = TableFetcher([
            "https://shop.example/page": RemoteImageResponse(status: 200, contentType: "text/html", body: Data("<html>".utf8)),
            "https://shop.example/loop.png": RemoteImageResponse(status: 302, location: "https://shop.example/loop.png"),
        ])
        let (images, directory) = Self.proxy(fetcher)
        defer { try? FileManager.default.removeItem(at: directory) }
        await #expect(throws: RemoteImageError.notAnImage(contentType: "text/html")) { try await images.image("https://shop.example/page") }
        await #expect(throws: RemoteImageError.status(404, host: "shop.example")) { try await images.image("https://shop.example/gone.png") }
        await #expect(throws: RemoteImageError.tooManyRedirects(host: "shop.example")) { try await images.image("https://shop.example/loop.png") }
        await #expect(throws: RemoteImageError.notRemote) { try await images.image("file:///etc/passwd") }
        #expect(fetcher.asked.withLock { $0 }.filter { $0.hasSuffix("loop.png") }.count == RemoteImages.maxRedirects + 1)
        #expect(RemoteImageError.status(404, host: "shop.example").description == "not shown: shop.example answered 404")
    }

    @Test("The cache keeps to its capacity: the least recently shown image goes first")
    func capacity() async throws {
        let big = { (byte: UInt8) in Data(repeating: byte, count: 400) }
        let fetcher = TableFetcher([
            "https://a.example/1.png": RemoteImageResponse(status: 200, contentType: "image/png", body: big(1)),
            "https://a.example/2.png": RemoteImageResponse(status: 200, contentType: "image/png", body: big(2)),
            "https://a.example/3.png": RemoteImageResponse(status: 200, contentType: "image/png", body: big(3)),
        ])
        let (images, directory) = Self.proxy(fetcher, capacity: 1000)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await images.image("https://a.example/1.png")
        _ = try await images.image("https://a.example/2.png")
        // 1 is shown again (a hit), later than 2.
        let old = Date(timeIntervalSinceNow: -60)
        for file in try FileManager.default.contentsOfDirectory(at: directory.appendingPathComponent("content"), includingPropertiesForKeys: nil) {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)
        }
        _ = try await images.image("https://a.example/1.png")
        _ = try await images.image("https://a.example/3.png")
        #expect(images.cache.size() <= 1000)
        #expect(images.cache.entry(for: "https://a.example/2.png") == nil)
        #expect(images.cache.entry(for: "https://a.example/1.png") != nil)
        #expect(images.cache.entry(for: "https://a.example/3.png") != nil)
    }
}
