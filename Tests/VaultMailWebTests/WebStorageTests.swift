import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// Settings → Storage (issue 31) over HTTP: what is kept per account, the image cache and
/// clearing it, through the form that works without the script.
@Suite("Web app: Settings → Storage (issue 31)")
struct WebStorageTests {
    @Test("Settings → Storage lists the account's messages and sizes, the search index, the cached images; 'Clear cached images' empties the cache and says what it freed")
    func storageSection() async throws {
        try await WebFixture.with { web in
            try await web.store((1...3).map { MailFixtures.email(accountId: web.account.id, number: $0) })
            let cache = RemoteImageCache(directory: VaultMailHome(explicit: web.home.path).imageCacheDirectory)
            cache.store(RemoteImage(data: Data(repeating: 1, count: 30_000), contentType: "image/png"), for: "https://example.org/logo.png")
            let (cookie, csrf) = try await web.signIn()

            let page = try await web.get("/settings", cookie: cookie)
            #expect(page.status == 200)
            let section = try #require(page.text.firstRange(of: "<section class=\"settings-section\" id=\"storage\"").map { String(page.text[$0.lowerBound...]) })
            #expect(section.contains("<a href=\"#storage\">Storage</a>") || page.text.contains("<a href=\"#storage\">Storage</a>"))
            #expect(section.contains("<th scope=\"row\">\(web.account.name) <span class=\"address\">\(web.account.email)</span></th><td>3</td>"), "\(section.prefix(1200))")
            #expect(section.contains("Search index (all accounts)"))
            #expect(section.contains("<dt>Cached images</dt><dd>30 KB</dd>"), "\(section.prefix(1500))")

            let cleared = try await web.post("/settings/storage/clear-images", "csrf=\(csrf)", cookie: cookie)
            #expect(cleared.status == 303)
            let location = try #require(cleared.headers["location"])
            #expect(location.hasSuffix("#storage") && location.contains("Cached%20images%20cleared"), "\(location)")
            #expect(cache.entry(for: "https://example.org/logo.png") == nil)
            let after = try await web.get("/settings", cookie: cookie)
            #expect(after.text.contains("<dt>Cached images</dt><dd>0 bytes</dd>"))

            // Like every form, clearing needs the page's token.
            let forged = try await web.post("/settings/storage/clear-images", "csrf=0", cookie: cookie)
            #expect(forged.status == 403)
        }
    }
}
