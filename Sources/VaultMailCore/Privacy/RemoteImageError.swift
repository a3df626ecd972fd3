/// Why the proxy gives no image for an address. Its words name hosts, never a URL's query
/// (which often identifies the recipient).
public enum RemoteImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The address, or a redirect on the way, is a tracker the shield knows.
    case tracker(host: String)
    /// Not an http(s) address with a host.
    case notRemote
    /// The server answered with something other than an image.
    case notAnImage(contentType: String)
    /// Larger than `RemoteImages.maxBytes`.
    case tooLarge(limit: Int)
    /// An HTTP status other than success or a redirect.
    case status(Int, host: String)
    /// More than `RemoteImages.maxRedirects` redirects.
    case tooManyRedirects(host: String)
    /// The server could not be reached or broke off (in its own words).
    case unreachable(host: String, reason: String)

    public var description: String {
        switch self {
        case .tracker(let host): "not fetched: \(host) is a tracker"
        case .notRemote: "not fetched: not an http or https address"
        case .notAnImage(let type): "not shown: the server sent \(type.isEmpty ? "something without a type" : type), not an image"
        case .tooLarge(let limit): "not shown: larger than \(limit / 1_000_000) MB"
        case .status(let code, let host): "not shown: \(host) answered \(code)"
        case .tooManyRedirects(let host): "not shown: \(host) redirected too many times"
        case .unreachable(let host, let reason): "not shown: \(host) could not be reached (\(reason))"
        }
    }
}
