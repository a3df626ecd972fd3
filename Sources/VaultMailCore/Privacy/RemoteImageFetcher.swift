import Foundation

/// One HTTP GET of a remote image, as the daemon's image proxy makes it (issue 30): no cookies
/// sent or kept, no `Referer`, a `User-Agent` every VaultMail shares, redirects **not** followed
/// (`RemoteImages` decides each hop). The adapter is `URLSessionImageFetcher` (VaultMailApp).
public protocol RemoteImageFetcher: Sendable {
    /// The answer to `GET url`, its body read up to `maxBytes` (more throws
    /// `RemoteImageError.tooLarge`).
    func fetch(_ url: URL, maxBytes: Int) async throws -> RemoteImageResponse
}
