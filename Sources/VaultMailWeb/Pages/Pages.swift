import Foundation
import Hummingbird
import VaultMailCore

/// Responses the routes share: an HTML page, plain text, the sign-in page.
enum Pages {
    static func html(_ body: Markup, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: body.html)))
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// `value` as JSON (the types of `JSONReply`, `NewMailSummary`, …).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: jsonText(value))))
    }

    /// `value` as one line of JSON (a newline in a string is written `\n`, so it cannot end a
    /// server-sent event early).
    static func jsonText(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            preconditionFailure("A reply of the web app does not encode: \(error)")
        }
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// Hands the browser on to a provider's consent page with a refresh and a link, rather than
    /// a 303 from the sign-in form's post: a browser applies the page's `form-action 'self'` to
    /// every redirect after a post, including the one a provider that consents at once (a
    /// returning Microsoft user) sends to VaultMail's loopback listener.
    static func consentHandoff(_ url: URL) -> Response {
        struct Model { var target: String; var provider: String }
        let body = consentTemplate.render(Model(target: url.absoluteString, provider: url.host ?? "your provider"))
        var response = html(document(title: "Signing in — VaultMail", bodyClass: "signin", body: body))
        response.headers[.refresh] = "0; url=\(url.absoluteString)"
        return response
    }

    private static let consentTemplate = Template("""
        <main class="signin-card" id="main">
        <h1>Signing in</h1>
        <p>Your provider's sign-in page opens now. If it does not, <a href="{{target}}" id="consent-link">continue to {{provider}}</a>.</p>
        <p class="hint-text">After you allow VaultMail there, your browser comes back here.</p>
        </main>
        """)

    /// The page a browser without a session gets: how to sign in.
    static func signInNeeded(reason: String? = nil) -> Response {
        struct Model { var reason: String? }
        return html(document(title: "Sign in — VaultMail", bodyClass: "signin", body: signInNeededTemplate.render(Model(reason: reason))),
                    status: .unauthorized)
    }

    private static let signInNeededTemplate = Template("""
        <main class="signin-card" id="main">
        <h1>VaultMail</h1>
        {{#reason}}<p class="notice error" role="alert">{{reason}}</p>{{/reason}}
        <p>This is VaultMail, your mail on this computer. To keep it yours, the page opens only from your own account.</p>
        <p>Open it from a terminal with</p>
        <pre><code>vaultmail open</code></pre>
        <p>It opens this page in your browser, signed in. Nothing you read here leaves this computer.</p>
        </main>
        """)

    /// The page a browser gets once signed in: it goes on to `next` (a page, not a redirect:
    /// the cookie is SameSite=Strict, and a redirect that began on the sign-in file would not carry it).
    static func signedIn(next: String) -> Markup {
        struct Model { var next: String }
        return document(title: "Opening VaultMail", bodyClass: "signin", body: signedInTemplate.render(Model(next: next)))
    }

    private static let signedInTemplate = Template("""
        <meta http-equiv="refresh" content="0;url={{next}}">
        <main class="signin-card" id="main"><h1>VaultMail</h1><p>Signed in. <a href="{{next}}">Open your mail</a>.</p></main>
        """)

    /// A whole HTML document around `body`, with the app's stylesheet and script.
    /// How pages look: the theme on `<html>`, the list density on `<body>`; what opens after
    /// triage (`data-after-triage`, read by the script).
    struct Display: Sendable {
        var theme: Theme = .system
        var density: ListDensity = .comfortable
        var afterTriage: AfterTriage = .older
    }

    static func document(title: String, bodyClass: String, csrf: String? = nil, body: Markup,
                         scripts: [Asset] = [Assets.script, Assets.searchScript], display: Display = Display()) -> Markup {
        struct Model {
            var title: String
            var bodyClass: String
            var csrf: String?
            var body: Markup
            var scripts: [String]
            var theme: String
            var compact: Bool
            var afterTriage: String
            var stylesheet: String
            var favicon: String
        }
        return documentTemplate.render(Model(
            title: title, bodyClass: bodyClass, csrf: csrf, body: body, scripts: scripts.map(\.path), theme: display.theme.rawValue,
            compact: display.density == .compact, afterTriage: display.afterTriage.rawValue, stylesheet: Assets.stylesheet.path, favicon: Assets.favicon.path))
    }

    private static let documentTemplate = Template("""
        <!doctype html>
        <html lang="en" data-theme="{{theme}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>{{title}}</title>
        <link rel="stylesheet" href="{{stylesheet}}">
        <link rel="icon" href="{{favicon}}" type="image/svg+xml">
        {{#csrf}}<meta name="csrf-token" content="{{csrf}}">{{/csrf}}
        {{#scripts}}
        <script src="{{.}}" defer></script>
        {{/scripts}}
        </head>
        <body class="{{bodyClass}}{{#compact}} compact{{/compact}}" data-after-triage="{{afterTriage}}">
        {{{body}}}
        </body>
        </html>
        """)
}
