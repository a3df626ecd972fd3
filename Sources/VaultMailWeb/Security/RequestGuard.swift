import Foundation
import HTTPTypes
import Hummingbird
import VaultMailCore

/// The checks every request passes before a route sees it:
/// 0. the client is a program of the user the app belongs to (`PeerOwner`);
/// 1. `Host` names this server's loopback address and port (a DNS-rebinding page cannot talk to it);
/// 2. a valid session cookie, except for the sign-in page and the stylesheet and script;
/// 3. for anything but GET and HEAD: an `Origin` of this server and the session's CSRF token.
struct RequestGuard: RouterMiddleware {
    typealias Context = WebRequestContext

    let secret: WebSecret
    let owners = ConnectionOwners()
    /// The port the app listens on (known once it listens, when it was given port 0).
    let port: @Sendable () -> Int

    /// Paths that answer without a session: they hold no mail, or (a message's remote image,
    /// asked for by its sandboxed frame, whose requests carry no cookie) carry their own proof,
    /// a signature the route checks.
    static func isPublic(_ path: String) -> Bool {
        path == "/signin" || path.hasPrefix("/assets/") || path == "/favicon.ico"
            || (path.hasPrefix("/message/") && path.hasSuffix("/image"))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let port = self.port()
        guard owners.isOwnUser(context.channel, serverPort: port) else {
            return Pages.plain(.forbidden, "Refused: this VaultMail belongs to another user of this computer.")
        }
        let allowedHosts: Set<String> = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = request.head.authority, allowedHosts.contains(host.lowercased()) else {
            return Pages.plain(.misdirectedRequest, "This VaultMail server answers only at http://127.0.0.1:\(port)/. Open it with `vaultmail open`.")
        }
        var context = context
        var request = request
        let isSafe = request.method == .get || request.method == .head
        if !isSafe {
            let allowedOrigins = Set(allowedHosts.map { "http://\($0)" })
            // Sign-in comes from the page `vaultmail open` left in a file (Origin "null"): its one-time token is the proof.
            guard request.uri.path == "/signin" || request.headers[.origin].map({ allowedOrigins.contains($0.lowercased()) }) == true else {
                return Pages.plain(.forbidden, "Refused: this request did not come from VaultMail's own page (its Origin is not http://127.0.0.1:\(port)).")
            }
            if request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
                let body = try await request.collectBody(upTo: context.maxUploadSize)
                context.formBody = String(buffer: body)
            }
        }
        if Self.isPublic(request.uri.path) { return try await next(request, context) }

        guard let cookie = request.cookies[WebSession.cookieName]?.value,
              let session = WebSession.verify(cookie, secret: secret, now: Date()) else {
            return isSafe && request.headers[.accept]?.contains("text/html") != false
                ? Pages.signInNeeded()
                : Pages.plain(.unauthorized, "Not signed in: run `vaultmail open` to open VaultMail signed in.")
        }
        if !isSafe {
            let token = try request.headers[.csrfToken] ?? context.form(CSRFField.self).csrf ?? ""
            guard session.isCSRFToken(token, secret: secret) else {
                return Pages.plain(.forbidden, "Refused: the page's security token is missing or stale. Reload the page and try again.")
            }
        }
        context.session = session
        return try await next(request, context)
    }
}

/// The CSRF token of a posted form (the script sends it as `X-CSRF-Token` instead).
private struct CSRFField: Decodable {
    var csrf: String?
}

extension HTTPField.Name {
    static let csrfToken = Self("X-CSRF-Token")!
    static let contentSecurityPolicy = Self("Content-Security-Policy")!
}
