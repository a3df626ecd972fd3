import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// The tracker shield in the browser (issue 30): a newsletter of today's shape opened in
/// Chromium, with a loopback server standing in for every remote host: the daemon reaches it as
/// its HTTP proxy (`http_proxy`), and the browser resolves the hosts' names to it (so a page that
/// fetched an image itself would show there, in origin form). With images blocked nothing is
/// fetched; with images allowed the daemon fetches the logo and the photo — without cookies,
/// `Referer` or the browser's `User-Agent` — and no tracker, not even behind a redirect; opened
/// again, nothing is fetched; no shown link keeps a tracking parameter; the message says what was
/// removed, and Settings → Privacy counts it.
@Suite("Web app: the tracker shield against a loopback server for the remote hosts (issue 30)", .serialized)
struct WebAppShieldTests {
    /// The hosts of the newsletter, all served by the test's recording server.
    static let hosts = ["cdn.shop.test", "shop.test", "news.shop.test", "click.mailer.test", "sb.scorecardresearch.com",
                        "example.us1.list-manage.com"]

    /// A newsletter shaped like Mailchimp's: a header logo and a product photo (served), utm
    /// links, a click redirect with its destination, a hidden preheader image, the open pixel,
    /// a listed tracker's image (scorecardresearch.com, on EasyPrivacy), a listed open beacon
    /// (list-manage.com/track/), and a CSS background that is an open beacon.
    static func newsletter(port: Int) -> Data {
        let html = """
            <html><head><style>td.hero{background-image:url(http://news.shop.test:\(port)/track/open/css-beacon)}</style></head>
            <body style="margin:0;background:#f4f4f4"><div style="display:none;max-height:0;overflow:hidden">
            <img src="http://cdn.shop.test:\(port)/preheader.png" width="600" height="10" alt="">Our winter sale starts today</div>
            <table width="600" align="center" cellpadding="0" cellspacing="0" style="background:#ffffff;font-family:Arial,sans-serif">
            <tr><td style="padding:20px"><img src="http://cdn.shop.test:\(port)/images/logo.png" width="180" height="60" alt="Shop logo"></td></tr>
            <tr><td class="hero" style="padding:0 20px"><h1 style="font-size:24px">Winter sale: boots 30% off</h1>
            <img src="http://cdn.shop.test:\(port)/images/boots.png" width="560" height="200" alt="Boots">
            <img src="http://cdn.shop.test:\(port)/images/banner.png" width="560" height="100" alt="Banner">
            <p>Warm, light and made to last. <a href="http://shop.test:\(port)/boots?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=winter&amp;id=42&amp;mc_eid=abc123" id="boots-link">Shop boots</a></p>
            <p><a href="http://click.mailer.test:\(port)/c?url=http%3A%2F%2Fshop.test%3A\(port)%2Fsale%3Ffbclid%3Dxyz%26page%3D2&amp;sig=9f" id="sale-link">All offers</a></p>
            </td></tr>
            <tr><td style="padding:20px;font-size:12px;color:#666">You get this because you signed up at shop.test.
            <a href="http://shop.test:\(port)/unsubscribe?u=77&amp;_hsenc=p2ANqtz&amp;utm_content=footer">Unsubscribe</a>
            <img src="http://news.shop.test:\(port)/e/o.gif?u=77" width="1" height="1" alt="">
            <img src="http://sb.scorecardresearch.com:\(port)/p?c1=2&amp;c2=123" width="40" height="20" alt="">
            <img src="http://example.us1.list-manage.com:\(port)/track/open.php?u=1a2b&amp;id=3c4d" alt="">
            </td></tr></table></body></html>
            """
        return TestMessage(from: "Shop News <news@shop.test>", to: "Ada <\(EndToEndWorld.address)>", subject: "Winter sale: boots 30% off",
                           timeZone: .current, headers: ["List-Unsubscribe: <http://shop.test/unsubscribe?u=77>"],
                           contentType: "text/html; charset=utf-8", body: html).data
    }

    /// Request paths of trackers: none may ever reach the server.
    static let trackerPaths = ["/e/o.gif", "/p?c1=", "/track/open", "/preheader.png", "/c?url="]
    /// The banner redirects to a listed tracker: the daemon asks for the banner and stops there.
    static let redirects: [String: (Int, String?)] = ["/images/banner.png": (302, "http://example.us1.list-manage.com/track/open.php?u=9")]

    static let logo = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAALQAAAA8CAIAAABATAfQAAAAg0lEQVR42u3SAQkAAAgEsU9iMNMZ1QIWEAZLcFyqB06RAHNgDsyBOTAH5sAcmANzYA4wB+bAHJgDc2AOzIE5MAfmAHNgDsyBOTAH5sAcmANzYA4wB+bAHJgDc2AOzIE5MAfmwBxgDsyBOTAH5sAcmANzYA7MAebAHJgDc2AOzIE5+GoBjrgnM+bszyIAAAAASUVORK5CYII=")!
    static let boots = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAjAAAADICAIAAAB5zUxlAAACYUlEQVR42u3VMQ0AAAgEsZeDRCQiCxkwNKmCWy7TBQDnIgEAhgQAhgSAIQGAIQFgSABgSAAYEgAYEgCGBACGBIAhAYAhAWBIAGBIABgSABgSAIYEAIYEgCEBgCEBYEgAYEgAGBIAGBIAhgQAhgSAIQGAIQFgSABgSAAYEgAYEgAYEgCGBACGBIAhAYAhAWBIAGBIABgSABgSAIYEAIYEgCEBgCEBYEgAYEgAGBIAGBIAhgQAhgSAIQGAIQFgSABgSAAYEgAYEgCGBACGBIAhAYAhAWBIAGBIABiSCgAYEgAYEgCGBACGBIAhAYAhAWBIAGBIABgSABgSAIYEAIYEgCEBgCEBYEgAYEgAGBIAGBIAhgQAhgSAIQGAIQFgSABgSAAYEgAYEgCGBACGBIAhAYAhAWBIAGBIAGBIABgSABgSAIYEAIYEgCEBgCEBYEgAYEgAGBIAGBIAhgQAhgSAIQGAIQFgSABgSAAYEgAYEgCGBACGBIAhAYAhAWBIAGBIABgSABgSAIYEAIYEgCEBgCEBYEgAYEgAYEgAGBIAGBIAhgQAhgSAIQGAIQFgSABgSAAYEgAYEgCGBACGBIAhAYAhAWBIAGBIABgSABgSAIYEAIYEgCEBgCEBYEgAYEgAGBIAGBIAhgQAhgSAIQGAIQFgSCoAYEgAYEgAGBIAGBIAhgQAhgSAIQGAIQFgSABgSAAYEgAYEgCGBACGBIAhAYAhAWBIAGBIABgSABgSAIYEAIYEgCEBgCEBYEgAYEgAGBIAGBIAhgQAhgSAIQGAIQGAIQFgSABgSAAYEgAYEgA/LacjYAoBkGDAAAAAAElFTkSuQmCC")!

    @Test("Issue 30: images blocked, nothing is fetched; allowed, the logo and the photo are and no tracker is; no shown link keeps a tracking parameter; the message and Settings → Privacy say what was removed")
    func newsletterShield() async throws {
        try await EndToEndWorld.with { world in
            let server = try await RecordingHTTPSServer(plainFiles: ["/images/logo.png": (Self.logo, "image/png"),
                                                                     "/images/boots.png": (Self.boots, "image/png")],
                                                        statuses: Self.redirects)
            defer { server.stop() }
            try world.deliver(Self.newsletter(port: server.port))
            try await world.addAccount()
            world.setEnvironment(["http_proxy": "http://127.0.0.1:\(server.port)"])
            try await world.startDaemon()
            let browser = try await world.signedInBrowser(loopbackHosts: Self.hosts)
            defer { browser.stop() }

            // Images blocked (the default): nothing remote is asked for.
            try await world.openRow(browser, containing: "Winter sale")
            try await browser.wait("return document.querySelector('#conversation iframe') !== null")
            try await world.waitForFrame(browser)
            #expect(try await browser.count("#conversation .images-bar a[data-images]") == 1, "Show images is offered for the real images")
            let summary = try await browser.string("return document.querySelector('.shield-note summary')?.textContent ?? ''")
            #expect(summary.hasSuffix("trackers removed"), "\(summary)")
            let removed = Int(summary.prefix { $0.isNumber }) ?? 0
            // The pixel, the preheader, the listed image, the listed beacon, the CSS beacon; 3 links.
            #expect(removed >= 8, "\(summary)")
            #expect(server.requests.isEmpty, "fetched with images blocked: \(server.requests)")

            // The links shown: cleaned, the redirect unwrapped, each showing where it goes.
            let links = try #require(try await browser.frameJS("#conversation iframe", """
                return Array.from(document.querySelectorAll('a')).map(a => [a.textContent, a.getAttribute('href'), a.title])
                """) as? [[String]])
            let base = "http://shop.test:\(server.port)"
            #expect(links.contains(["Shop boots", "\(base)/boots?id=42", "\(base)/boots?id=42"]), "\(links)")
            #expect(links.contains(["All offers", "\(base)/sale?page=2", "\(base)/sale?page=2"]), "\(links)")
            #expect(links.contains(["Unsubscribe", "\(base)/unsubscribe?u=77", "\(base)/unsubscribe?u=77"]), "\(links)")
            for link in links {
                for parameter in ["utm_", "mc_eid", "fbclid", "_hsenc", "click.mailer.test"] {
                    #expect(!link[1].contains(parameter), "\(link)")
                }
            }

            // The list of what was removed, on request.
            try await browser.click(".shield-note summary")
            let rows = try await browser.string("return Array.from(document.querySelectorAll('.shield-note li')).map(li => li.textContent).join('\\n')")
            for expected in ["sb.scorecardresearch.com · known tracker", "example.us1.list-manage.com · known tracker",
                             "news.shop.test · known tracker ×2", "cdn.shop.test · invisible image", "click.mailer.test · click-tracking redirect",
                             "shop.test · tracking parameters in a link ×3"] {
                #expect(rows.contains(expected), "'\(expected)' not in:\n\(rows)")
            }
            try await world.expectAccessible(browser, page: "a newsletter with trackers removed")
            try await world.screenshots(browser, name: "shield-blocked")

            // Images allowed: the daemon fetches the real images, and no tracker is asked for.
            try await browser.click(".images-bar a[data-images]")
            try await browser.wait("return document.querySelector('#conversation iframe') !== null && location.search.includes('images=')")
            try await world.waitForFrame(browser)
            let images = ["http://cdn.shop.test:\(server.port)/images/logo.png", "http://cdn.shop.test:\(server.port)/images/boots.png"]
            try await world.eventually("the logo and the photo fetched", timeout: .seconds(20)) {
                images.allSatisfy { image in server.requests.contains { $0.target == image } }
            }
            // The frame is an origin of its own: its images are read from inside it.
            let shownImages = {
                try await browser.frameJS("#conversation iframe", """
                    return Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0).map(i => i.getAttribute('src'))
                    """) as? [String] ?? []
            }
            try await world.eventually("the frame shows the logo and the photo", timeout: .seconds(20)) { try await shownImages().count == 2 }
            let shown = try await shownImages()
            #expect(shown.count == 2 && shown.allSatisfy { $0.hasPrefix("/message/") && $0.contains("%2Fimages%2F") }, "\(shown)")
            let fetched = server.requests
            // Every request came from the daemon, as to a proxy (the browser fetched nothing itself).
            #expect(fetched.allSatisfy { $0.target.hasPrefix("http://") }, "\(fetched.map(\.target))")
            for request in fetched {
                #expect(request.header("Cookie") == nil && request.header("Referer") == nil, "\(request.headers)")
                #expect(request.header("User-Agent") == "Mozilla/5.0", "\(request.headers)")
            }
            let leaked = fetched.filter { request in Self.trackerPaths.contains { request.target.contains($0) } }
            #expect(leaked.isEmpty, "trackers fetched: \(leaked.map(\.target))")
            #expect(Set(fetched.map(\.target)) == Set(images + ["http://cdn.shop.test:\(server.port)/images/banner.png"]),
                    "only the logo, the photo and the banner that redirects to a tracker: \(fetched.map(\.target))")
            // Opened again: from the daemon's cache, nothing fetched.
            try await browser.js("location.reload()")
            try await world.waitForFrame(browser)
            try await world.eventually("the frame shows them again", timeout: .seconds(20)) { try await shownImages().count == 2 }
            #expect(server.requests.count == fetched.count, "fetched again: \(server.requests.dropFirst(fetched.count).map(\.target))")
            try await world.expectAccessible(browser, page: "a newsletter with images shown and trackers removed")
            try await browser.click(".shield-note summary")
            try await world.screenshots(browser, name: "shield")

            // Settings → Privacy counts what was removed, overall and for the sender.
            try await browser.get(try await browser.url.components(separatedBy: "/mail")[0] + "/settings#privacy")
            let privacy = try await browser.string("return document.querySelector('#privacy')?.textContent ?? ''")
            #expect(privacy.contains("\(removed) trackers") && privacy.contains("news@shop.test"), "\(privacy)")
            #expect(privacy.contains("EasyPrivacy"), "\(privacy)")
            try await world.expectAccessible(browser, page: "Settings → Privacy")
            try await browser.js("document.querySelector('#privacy').scrollIntoView()")
            try await world.screenshots(browser, name: "settings-privacy")
            #expect(server.requests.count == fetched.count, "nothing else fetched: \(server.requests.map(\.target))")

            // Settings → Storage (issue 31): the images the daemon keeps, and clearing them.
            let cached = try await browser.string("return document.querySelector('#storage dl')?.textContent ?? ''")
            #expect(cached.contains("Cached images") && !cached.contains("Cached images0 bytes"), "\(cached)")
            try await browser.js("document.querySelector('#storage').scrollIntoView()")
            try await world.screenshots(browser, name: "settings-storage")
            try await browser.setSize(width: 420, height: 860)
            let overflow = try await browser.number("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            #expect(overflow <= 0, "the narrow settings page scrolls sideways by \(overflow) px")
            try await browser.setSize(width: 1280, height: 800)
            try await browser.click("#storage form button")
            try await browser.wait("return (document.querySelector('#settings-status')?.textContent ?? '').includes('Cached images cleared')", timeout: 30)
            #expect(try await browser.string("return document.querySelector('#storage dl').textContent").contains("Cached images0 bytes"))
            try await world.expectAccessible(browser, page: "Settings → Storage")
        }
    }
}
