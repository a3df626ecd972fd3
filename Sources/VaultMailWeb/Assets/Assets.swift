import Crypto
import Hummingbird
import VaultMailCore

/// A file the app serves itself (no CDN, no web fonts from elsewhere): its content is part of
/// the binary, and its URL carries a hash of the content so browsers may keep it for good.
struct Asset: Sendable {
    let name: String
    let contentType: String
    let content: String
    let path: String

    init(name: String, type: String, content: String) {
        self.name = name
        contentType = type
        self.content = content
        let hash = SHA256.hash(data: Array(content.utf8)).hexString.prefix(10)
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        path = "/assets/\(name[..<dot])-\(hash)\(name[dot...])"
    }
}

enum Assets {
    static let stylesheet = Asset(name: "app.css", type: "text/css; charset=utf-8", content: AppStylesheet.css)
    /// The app's script with the conversation's summary and suggested replies (one request, not two).
    static let script = Asset(name: "app.js", type: "text/javascript; charset=utf-8", content: AppScript.js + "\n" + WritingScript.js + "\n" + UnsubscribeScript.js)
    static let composeScript = Asset(name: "compose.js", type: "text/javascript; charset=utf-8", content: ComposeScript.js)
    static let settingsScript = Asset(name: "settings.js", type: "text/javascript; charset=utf-8", content: SettingsScript.js)
    static let onboardingScript = Asset(name: "onboarding.js", type: "text/javascript; charset=utf-8", content: OnboardingScript.js)
    static let favicon = Asset(name: "icon.svg", type: "image/svg+xml", content: """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3b4fd8"/><path d="M6 10h20v13H6z" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/><path d="M6 10l10 8 10-8" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/></svg>
        """)
    static let searchScript = Asset(name: "search.js", type: "text/javascript; charset=utf-8", content: SearchScript.js)
    /// The Subscriptions page's script (the mail page has it in app.js).
    static let unsubscribeScript = Asset(name: "unsubscribe.js", type: "text/javascript; charset=utf-8", content: UnsubscribeScript.js)
    static let all = [stylesheet, script, searchScript, composeScript, settingsScript, onboardingScript, unsubscribeScript, favicon]
}

extension WebApp {
    func addAssetRoutes(to router: Router<WebRequestContext>) {
        let byPath = Dictionary(uniqueKeysWithValues: Assets.all.map { ($0.path, $0) })
        router.get("/assets/{file}") { request, _ -> Response in
            guard let asset = byPath[request.uri.path] else { return Pages.plain(.notFound, "No such file.") }
            var response = Response(status: .ok, headers: [.contentType: asset.contentType],
                                    body: ResponseBody(byteBuffer: ByteBuffer(string: asset.content)))
            response.headers[.cacheControl] = "public, max-age=31536000, immutable"
            return response
        }
        router.get("/favicon.ico") { _, _ in Pages.redirect(Assets.favicon.path) }
    }
}
