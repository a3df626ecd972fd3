import Foundation

/// The daemon's image proxy (issue 30): when the user lets a message's images in, the page asks
/// the daemon for each remote image, and the daemon — not the browser — fetches it. The one
/// rule for what is fetched and how:
/// - only an http(s) address the shield does not name as a tracker (`TrackerShield.styleResource`:
///   listed, or shaped like an open beacon), checked again at **every redirect**: a redirect to a
///   tracker (or anything not http(s)) is refused, at most `maxRedirects` are followed;
/// - sent without cookies, `Referer` or the browser's `User-Agent`, language and cookies for the
///   sender's sites (`RemoteImageFetcher`), so the open cannot be tied to the user's browsing;
/// - kept only when the answer is an image (`image/*`) of at most `maxBytes`;
/// - cached by content (`RemoteImageCache`): opened again, nothing is fetched (nor is an address
///   that redirected to a tracker).
/// Whether the message's images may be fetched at all is decided before: the web app signs each
/// image address of a message it shows with images allowed, and asks this only for those.
/// The remote server still learns the machine's address and the time of the fetch.
public struct RemoteImages: Sendable {
    public static let maxRedirects = 5
    public static let maxBytes = 10_000_000

    let shield: TrackerShield
    let fetcher: any RemoteImageFetcher
    public let cache: RemoteImageCache

    public init(shield: TrackerShield, fetcher: any RemoteImageFetcher, cache: RemoteImageCache) {
        self.shield = shield
        self.fetcher = fetcher
        self.cache = cache
    }

    /// The image at `address` (as the message writes it), from the cache or fetched.
    public func image(_ address: String) async throws(RemoteImageError) -> RemoteImage {
        switch cache.entry(for: address) {
        case .image(let image): return image
        case .tracker(let host): throw .tracker(host: host)
        case nil: break
        }
        var current = address
        for _ in 0...Self.maxRedirects {
            guard let url = Self.httpURL(current), let host = url.host else { throw .notRemote }
            if let finding = shield.styleResource(current) {
                // Asked again, an address that leads to a tracker is not fetched again.
                if current != address { cache.storeTracker(host: finding.host, for: address) }
                throw .tracker(host: finding.host)
            }
            let response: RemoteImageResponse
            do {
                response = try await fetcher.fetch(url, maxBytes: Self.maxBytes)
            } catch let error as RemoteImageError {
                throw error
            } catch {
                throw .unreachable(host: host, reason: "no answer")
            }
            switch response.status {
            case 200..<300:
                let type = response.contentType ?? ""
                guard type.hasPrefix("image/") else { throw .notAnImage(contentType: type) }
                guard response.body.count <= Self.maxBytes else { throw .tooLarge(limit: Self.maxBytes) }
                let image = RemoteImage(data: response.body, contentType: type)
                cache.store(image, for: address)
                return image
            case 301, 302, 303, 307, 308:
                guard let location = response.location, let next = URL(string: location, relativeTo: url)?.absoluteString else {
                    throw .status(response.status, host: host)
                }
                current = next
            default:
                throw .status(response.status, host: host)
            }
        }
        throw .tooManyRedirects(host: Self.httpURL(address)?.host ?? "")
    }

    /// `text` as an http(s) URL with a host (protocol-relative addresses are https), or nil.
    static func httpURL(_ text: String) -> URL? {
        let full = text.hasPrefix("//") ? "https:" + text : text
        guard let url = URL(string: full), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return nil }
        return url
    }
}
