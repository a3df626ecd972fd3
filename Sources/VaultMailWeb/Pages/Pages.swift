import Foundation
import Hummingbird
import VaultMailCore

/// Responses the routes share: an HTML page, plain text, the sign-in page.
enum Pages {
    static func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// Hands the browser on to a provider's consent page with a refresh and a link, rather than
    /// a 303 from the sign-in form's post: a browser applies the page's `form-action 'self'` to
    /// every redirect after a post, including the one a provider that consents at once (a
    /// returning Microsoft user) sends to VaultMail's loopback listener.
    static func consentHandoff(_ url: URL) -> Response {
        let target = HTML.escape(url.absoluteString)
        let provider = HTML.escape(url.host ?? "your provider")
        var response = html(document(title: "Signing in — VaultMail", bodyClass: "signin", body: """
            <main class="signin-card" id="main">
            <h1>Signing in</h1>
            <p>Your provider's sign-in page opens now. If it does not, <a href="\(target)" id="consent-link">continue to \(provider)</a>.</p>
            <p class="hint-text">After you allow VaultMail there, your browser comes back here.</p>
            </main>
            """))
        response.headers[.refresh] = "0; url=\(url.absoluteString)"
        return response
    }

    /// The page a browser without a session gets: how to sign in.
    static func signInNeeded(reason: String? = nil) -> Response {
        let detail = reason.map { "<p class=\"notice error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        return html(document(title: "Sign in — VaultMail", bodyClass: "signin", body: """
            <main class="signin-card" id="main">
            <h1>VaultMail</h1>
            \(detail)
            <p>This is VaultMail, your mail on this computer. To keep it yours, the page opens only from your own account.</p>
            <p>Open it from a terminal with</p>
            <pre><code>vaultmail open</code></pre>
            <p>It opens this page in your browser, signed in. Nothing you read here leaves this computer.</p>
            </main>
            """), status: .unauthorized)
    }

    /// A whole HTML document around `body`, with the app's stylesheet and script.
    /// How pages look: the theme on `<html>`, the list density on `<body>`.
    struct Display: Sendable {
        var theme: Theme = .system
        var density: ListDensity = .comfortable
    }

    static func document(title: String, bodyClass: String, csrf: String? = nil, body: String,
                         scripts: [Asset] = [Assets.script, Assets.searchScript], display: Display = Display()) -> String {
        let token = csrf.map { "<meta name=\"csrf-token\" content=\"\(HTML.escape($0))\">" } ?? ""
        let scriptTags = scripts.map { "<script src=\"\($0.path)\" defer></script>" }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en" data-theme="\(display.theme.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escape(title))</title>
            <link rel="stylesheet" href="\(Assets.stylesheet.path)">
            <link rel="icon" href="\(Assets.favicon.path)" type="image/svg+xml">
            \(token)
            \(scriptTags)
            </head>
            <body class="\(bodyClass)\(display.density == .compact ? " compact" : "")">
            \(body)
            </body>
            </html>
            """
    }
}
