import HTTPTypes
import Hummingbird

/// Headers on every response: the app's strict Content-Security-Policy (unless a route set its
/// own, as the message frame does), no sniffing, no referrer to other sites, no framing by
/// others, no caching of mail.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = WebRequestContext

    /// The app's pages: only our own script, style, images and frames; no inline script.
    static let pagePolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
        "connect-src 'self'", "frame-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// Where a message's frame may load remote images from.
    enum RemoteImageSource {
        /// Nowhere: images are not allowed (the default).
        case none
        /// Only from this server: the daemon's image proxy fetches them (issue 30).
        case throughDaemon
        /// From the network, the browser itself (no proxy in this process).
        case direct
    }

    /// A message's HTML: sandboxed (an opaque origin of its own), one script only, ours, by
    /// its hash (`MessageFrame.heightScript`, which reports the frame's height); no fetches of
    /// anything except images the user allowed, no forms.
    static func messagePolicy(remoteImages: RemoteImageSource) -> String {
        let images = switch remoteImages {
        case .none: ""
        case .throughDaemon: " 'self'"
        case .direct: " http: https:"
        }
        return [
            "default-src 'none'", "script-src \(MessageFrame.scriptSource)", "style-src 'unsafe-inline'",
            "img-src data:" + images,
            "font-src data:", "form-action 'none'", "base-uri 'none'", "frame-ancestors 'self'",
            "sandbox \(frameSandbox)",
        ].joined(separator: "; ")
    }

    /// The message frame's sandbox, on its `<iframe>` and in its CSP alike: scripts (only the
    /// hashed one can run), links that open in a new tab as normal pages; never
    /// `allow-same-origin`, so the frame is an opaque origin.
    static let frameSandbox = "allow-scripts allow-popups allow-popups-to-escape-sandbox"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // A form or address that cannot be read (`FormError`), a body too large: said with these headers too.
            response = try error.response(from: request, context: context)
        }
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.pagePolicy
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        // same-origin, not no-referrer: with no-referrer a form post carries `Origin: null`,
        // which the guard must refuse. Nothing is ever sent to another origin either way.
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        if response.headers[.crossOriginResourcePolicy] == nil { response.headers[.crossOriginResourcePolicy] = "same-origin" }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
    static let crossOriginResourcePolicy = Self("Cross-Origin-Resource-Policy")!
    static let refresh = Self("Refresh")!
}
