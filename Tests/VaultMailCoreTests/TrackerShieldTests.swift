import Foundation
import Testing
import VaultMailCore

/// The tracker shield's rule (issue 30), in Core: the packaged lists read from where Debian's
/// `webext-ublock-origin-chromium` installs them, the filter syntax, the matcher, invisible
/// images and open beacons, and links cleaned of tracking.
@Suite("Tracker shield: packaged lists, matcher, pixels and links (issue 30)")
struct TrackerShieldTests {
    /// The shield over the real lists, read once (scripts/install-deps.sh installs the package).
    static let packaged = TrackerShield.load()

    /// A shield over the filter lines given, as the parser reads them.
    static func shield(_ lines: String) -> TrackerShield {
        var rules = TrackerRules()
        FilterListParser.parse(lines, into: &rules)
        return TrackerShield(rules: rules, status: .on(version: "test", files: [], filters: rules.filterCount, parameters: rules.parameters.count))
    }

    static let visible = ImageFacts(width: 600, height: 200, hidden: false)
    static let unsized = ImageFacts(width: nil, height: nil, hidden: false)

    // MARK: - The packaged lists

    @Test("Issue 30: EasyPrivacy and uBlock filters – Privacy are read from the installed package, with its version")
    func packagedLists() throws {
        guard case .on(let version, let files, let filters, let parameters) = Self.packaged.status else {
            Issue.record("the packaged tracker lists were not read: \(Self.packaged.status). Install them with scripts/install-deps.sh (Debian's webext-ublock-origin-chromium).")
            return
        }
        #expect(files == TrackerShield.listFiles.map { TrackerShield.chromiumPackageDirectory + "/" + $0 })
        #expect(version.split(separator: ".").count >= 2 && version.first?.isNumber == true, "version \(version)")
        // EasyPrivacy alone has some 50,000 network filters; uBlock's privacy list about 130 parameters.
        #expect(filters > 30_000, "\(filters) filters")
        #expect(parameters > 50, "\(parameters) parameters")
    }

    @Test("Issue 30: the packaged lists name the trackers of mail services and analytics, and leave ordinary images alone",
          arguments: [
              ("https://example.us1.list-manage.com/track/open.php?u=1a2b&id=3c4d&e=5e6f", true),
              ("https://u1234567.ct.sendgrid.net/wf/open?upn=abcdef", true),
              ("https://www.google-analytics.com/collect?v=1&tid=UA-1-1&t=event", true),
              ("https://api.mixpanel.com/track?data=abc&ip=1", true),
              ("https://t.hs-analytics.net/ptq.gif?a=1", true),
              ("https://sb.scorecardresearch.com/p?c1=2&c2=1", true),
              ("https://cdn.shop-example.com/images/logo.png", false),
              ("https://images.newsletter-example.org/2024/11/product-photo.jpg", false),
              ("https://static.example.net/charts/q3-sales.png", false),
          ])
    func packagedMatches(url: String, tracker: Bool) throws {
        try #require(Self.packagedListsRead, "the packaged lists are not installed: scripts/install-deps.sh")
        let finding = Self.packaged.image(url, facts: Self.visible)
        #expect((finding?.kind == .listedTracker) == tracker, "\(url): \(String(describing: finding))")
    }

    static var packagedListsRead: Bool {
        if case .on = packaged.status { return true }
        return false
    }

    @Test("Issue 30: the packaged $removeparam rules name the tracking parameters of mail (fbclid, gclid, mc_eid, _hsenc)")
    func packagedParameters() throws {
        try #require(Self.packagedListsRead, "the packaged lists are not installed: scripts/install-deps.sh")
        for name in ["fbclid", "gclid", "mc_eid", "_hsenc", "mtm_campaign", "pk_source", "oly_anon_id"] {
            #expect(Self.packaged.isTrackingParameter(name, host: "shop.example"), "\(name)")
        }
        #expect(!Self.packaged.isTrackingParameter("id", host: "shop.example"))
        #expect(!Self.packaged.isTrackingParameter("page", host: "shop.example"))
        // Host-scoped rules hold for their hosts only (`$removeparam=s,to=twitter.com|x.com`).
        #expect(Self.packaged.isTrackingParameter("s", host: "x.com"))
        #expect(!Self.packaged.isTrackingParameter("s", host: "shop.example"))
    }

    @Test("Issue 30: without any list the shield says where it looked and what to do, and still removes pixels and utm_ parameters")
    func listsMissing() {
        let shield = TrackerShield.load(directories: ["/nonexistent/ublock-origin", "/nonexistent/tracker-lists"])
        guard case .listsMissing(let reason) = shield.status else {
            Issue.record("status \(shield.status)")
            return
        }
        #expect(reason.contains("/nonexistent/ublock-origin, /nonexistent/tracker-lists"))
        #expect(reason.contains("Reinstall VaultMail's package"))
        #expect(shield.image("https://t.example.com/o.gif?id=1", facts: Self.unsized)?.kind == .openBeacon)
        #expect(shield.link("https://shop.example/a?utm_source=nl&id=3").url == "https://shop.example/a?id=3")
    }

    /// A directory laid out as uBlock Origin's, with `version` in its manifest and one filter.
    static func listDirectory(version: String?, filter: String, complete: Bool = true) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lists-\(UUID().uuidString)")
        for (index, file) in TrackerShield.listFiles.enumerated() where complete || index == 0 {
            let url = directory.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((index == 0 ? filter : "! nothing").utf8).write(to: url)
        }
        if let version {
            try Data(#"{"version": "\#(version)"}"#.utf8).write(to: directory.appendingPathComponent("manifest.json"))
        }
        return directory
    }

    @Test("Issue 30: of the lists found (Debian's uBlock packages, VaultMail's own copy), the newest whole set is read")
    func newestListsWin() throws {
        let old = try Self.listDirectory(version: "1.67.0", filter: "||old-tracker.example^")
        let newer = try Self.listDirectory(version: "1.68.2", filter: "||new-tracker.example^")
        let partial = try Self.listDirectory(version: "9.0.0", filter: "||partial.example^", complete: false)
        let unversioned = try Self.listDirectory(version: nil, filter: "||unversioned.example^")
        defer { for directory in [old, newer, partial, unversioned] { try? FileManager.default.removeItem(at: directory) } }

        let shield = TrackerShield.load(directories: [old.path, partial.path, newer.path, unversioned.path])
        guard case .on(let version, let files, _, _) = shield.status else {
            Issue.record("status \(shield.status)")
            return
        }
        #expect(version == "1.68.2")
        #expect(files.allSatisfy { $0.hasPrefix(newer.path + "/") })
        #expect(shield.image("https://new-tracker.example/logo.png", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://old-tracker.example/logo.png", facts: Self.visible) == nil)
        // Equal versions: the first found (Debian's package before VaultMail's copy).
        let again = try Self.listDirectory(version: "1.68.2", filter: "||again.example^")
        defer { try? FileManager.default.removeItem(at: again) }
        guard case .on(_, let first, _, _) = TrackerShield.load(directories: [newer.path, again.path]).status else { return }
        #expect(first.allSatisfy { $0.hasPrefix(newer.path + "/") })
        // Only an unversioned set: still read.
        #expect(TrackerShield.load(directories: [unversioned.path]).image("https://unversioned.example/x.png", facts: Self.visible) != nil)
    }

    // MARK: - The filter syntax

    @Test("Issue 30: ||host^ blocks the host and its subdomains, not a host that only ends alike")
    func hostFilters() {
        let shield = Self.shield("""
            [Adblock Plus 1.1]
            ! a comment
            ||tracker.example^
            ||stats.example/collect
            ||shop.example^*/pixel.gif
            """)
        #expect(shield.image("https://tracker.example/logo.png", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://a.b.tracker.example:8443/x.png", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://user@tracker.example/x.png", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://nottracker.example/x.png", facts: Self.visible) == nil)
        #expect(shield.image("https://stats.example/collect?id=1", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://stats.example/images/a.png", facts: Self.visible) == nil)
        #expect(shield.image("https://www.shop.example/a/b/pixel.gif?u=1", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://www.shop.example/a/b/photo.gif", facts: Self.visible) == nil)
        #expect(shield.image("//tracker.example/x.png", facts: Self.visible)?.host == "tracker.example")
    }

    @Test("Issue 30: plain patterns with *, ^ and | anchors; exceptions win; regular expressions and cosmetic filters are not read")
    func patterns() {
        let shield = Self.shield("""
            /beacon-img/*
            &event=open&
            |https://exact.example/a.png|
            .mailer.example/*/img?
            @@||good.example^
            /ad-track.
            /^https:\\/\\/regex\\.example\\//
            example.com##.banner
            example.com#@#.ad
            """)
        #expect(shield.image("https://x.example/beacon-img/1.png", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://x.example/q?a=1&event=open&b=2", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://exact.example/a.png", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://exact.example/a.png?x", facts: Self.visible) == nil)
        #expect(shield.image("https://e1.mailer.example/abc/img?id=9", facts: Self.visible)?.kind == .listedTracker)
        #expect(shield.image("https://good.example/beacon-img/1.png", facts: Self.visible) == nil, "an exception lets it through")
        #expect(shield.image("https://regex.example/x.png", facts: Self.visible) == nil)
        #expect(shield.image("https://x.example/ad-track.gif", facts: Self.visible)?.kind == .listedTracker)
    }

    @Test("Issue 30: options: only filters for images fetched by a third party on any site block a mail's image")
    func options() {
        let shield = Self.shield("""
            ||script-only.example^$script
            ||not-image.example^$~image
            ||images.example^$image,third-party
            ||site-only.example^$image,domain=news.example
            ||all-but.example^$domain=~news.example
            ||first-party.example^$~third-party
            ||redirected.example^$image,redirect=1x1.gif
            ||rewritten.example^$csp=default-src 'none'
            ||document.example^$doc
            """)
        func blocked(_ host: String) -> Bool { shield.image("https://\(host)/a.png", facts: Self.visible) != nil }
        #expect(!blocked("script-only.example"))
        #expect(!blocked("not-image.example"))
        #expect(blocked("images.example"))
        #expect(!blocked("site-only.example"))
        #expect(blocked("all-but.example"))
        #expect(!blocked("first-party.example"))
        #expect(blocked("redirected.example"))
        #expect(!blocked("rewritten.example"))
        #expect(!blocked("document.example"))
    }

    @Test("Issue 30: $removeparam rules: everywhere, on a host (||host^), or on the hosts of to=; regular expressions are not read")
    func removeparam() {
        let shield = Self.shield("""
            $removeparam=campaign_id
            ||shop.example^$removeparam=ref
            $removeparam=s,to=social.example|other.example
            $removeparam=/^trk_/
            """)
        #expect(shield.link("https://a.example/?campaign_id=1&q=2").url == "https://a.example/?q=2")
        #expect(shield.link("https://www.shop.example/p?ref=nl&id=4").url == "https://www.shop.example/p?id=4")
        #expect(shield.link("https://a.example/p?ref=nl").url == "https://a.example/p?ref=nl")
        #expect(shield.link("https://social.example/x?s=20").url == "https://social.example/x")
        #expect(shield.link("https://a.example/x?s=20").url == "https://a.example/x?s=20")
        #expect(shield.link("https://a.example/x?trk_a=1").url == "https://a.example/x?trk_a=1")
    }

    // MARK: - Invisible images and open beacons

    @Test("Issue 30: an image of 2 px or less (attributes or inline CSS) or hidden by CSS is invisible; a real one is not",
          arguments: [
              (ImageFacts(widthAttribute: "1", heightAttribute: "1", style: nil), true),
              (ImageFacts(widthAttribute: "0", heightAttribute: "0", style: nil), true),
              (ImageFacts(widthAttribute: "2px", heightAttribute: nil, style: nil), true),
              (ImageFacts(widthAttribute: nil, heightAttribute: nil, style: "width:1px;height:1px"), true),
              (ImageFacts(widthAttribute: "600", heightAttribute: "300", style: "max-height: 0 !important"), true),
              (ImageFacts(widthAttribute: "600", heightAttribute: "300", style: "display: none"), true),
              (ImageFacts(widthAttribute: "600", heightAttribute: "300", style: "visibility:hidden"), true),
              (ImageFacts(widthAttribute: "600", heightAttribute: "300", style: "opacity:0"), true),
              (ImageFacts(widthAttribute: "600", heightAttribute: "300", style: nil, hiddenAround: true), true),
              (ImageFacts(widthAttribute: "600", heightAttribute: "1", style: nil), false),
              (ImageFacts(widthAttribute: "100%", heightAttribute: nil, style: nil), false),
              (ImageFacts(widthAttribute: "120", heightAttribute: "40", style: "display:block;width:120px"), false),
              (ImageFacts(widthAttribute: nil, heightAttribute: nil, style: nil), false),
          ])
    func invisible(facts: ImageFacts, invisible: Bool) {
        #expect(facts.isInvisible == invisible, "\(facts)")
        let finding = Self.shield("").image("https://cdn.example/images/hero.png", facts: facts)
        #expect((finding?.kind == .invisibleImage) == invisible)
    }

    @Test("Issue 30: addresses shaped like open beacons are removed whatever their size; photos with such words in folders are not",
          arguments: [
              ("https://t.example.com/o.gif?id=1", true),
              ("https://mail.example.com/track/open/abc123", true),
              ("https://e.example.com/wf/open?upn=x", true),
              ("https://links.example.com/e/open/xyz", true),
              ("https://news.example.com/pixel.png?u=9", true),
              ("https://news.example.com/beacon", true),
              ("https://news.example.com/img/1x1.gif", true),
              ("https://news.example.com/t.gif", true),
              ("https://store.example.com/pixel/phone-front.jpg", false),
              ("https://news.example.com/images/opening-hours.png", false),
              ("https://news.example.com/t/header.png", false),
              ("https://firebasestorage.example.com/v0/b/app/o/logo.png", false),
          ])
    func beacons(url: String, beacon: Bool) {
        #expect((Self.shield("").image(url, facts: Self.unsized)?.kind == .openBeacon) == beacon, "\(url)")
    }

    @Test("Issue 30: CSS fetches are removed when listed or beacon-shaped; other URLs (cid:, data:) are never the shield's")
    func styleAndOtherURLs() {
        let shield = Self.shield("||tracker.example^")
        #expect(shield.styleResource("https://tracker.example/bg.png")?.kind == .listedTracker)
        #expect(shield.styleResource("https://mail.example/track/open/1")?.kind == .openBeacon)
        #expect(shield.styleResource("https://cdn.example/bg/header.jpg") == nil)
        #expect(shield.image("cid:logo@example", facts: ImageFacts(width: 1, height: 1, hidden: false)) == nil)
        #expect(shield.image("data:image/gif;base64,R0lGOD", facts: ImageFacts(width: 1, height: 1, hidden: false)) == nil)
    }

    // MARK: - Links

    @Test("Issue 30: utm_* and the built-in tracking parameters leave every link; other parameters, their order and the fragment stay")
    func linkParameters() {
        let shield = Self.shield("")
        let cleaned = shield.link("https://shop.example/item?utm_source=newsletter&id=42&UTM_Medium=email&mc_eid=abc&color=red&fbclid=x#reviews")
        #expect(cleaned.url == "https://shop.example/item?id=42&color=red#reviews")
        #expect(cleaned.findings == [TrackerFinding(host: "shop.example", kind: .trackingParameters)])
        #expect(shield.link("https://shop.example/?utm_campaign=x&_hsenc=p2&_hsmi=3").url == "https://shop.example/")
        #expect(shield.link("https://shop.example/a?id=1").findings.isEmpty)
        #expect(shield.link("mailto:ada@example.org?subject=utm_source").url == "mailto:ada@example.org?subject=utm_source")
    }

    @Test("Issue 30: a click-tracking redirect that carries its destination is unwrapped, and the destination cleaned too")
    func redirects() {
        let shield = Self.shield("")
        let wrapped = "https://click.mailer.example/c?url=https%3A%2F%2Fshop.example%2Fsale%3Futm_source%3Dnl%26id%3D7&sig=abc"
        let cleaned = shield.link(wrapped)
        #expect(cleaned.url == "https://shop.example/sale?id=7")
        #expect(cleaned.findings == [TrackerFinding(host: "click.mailer.example", kind: .clickRedirect),
                                     TrackerFinding(host: "shop.example", kind: .trackingParameters)])
        // Twice encoded, in a redirect wrapped in another.
        let twice = "https://r.example/out?redirect=https%253A%252F%252Fnews.example%252Fstory%252F1"
        #expect(shield.link(twice).url == "https://news.example/story/1")
        #expect(shield.link("https://a.example/r?u=https%3A%2F%2Fb.example%2Fx").url == "https://b.example/x")
        // Mailchimp's click links carry ids, not the destination: kept as they are.
        let mailchimp = "https://example.us1.list-manage.com/track/click?u=1a2b3c&id=4d5e&e=6f"
        #expect(shield.link(mailchimp).url == mailchimp)
        // Not a URL a browser would read the same way: left alone.
        #expect(shield.link("https://a.example/r?url=javascript%3Aalert(1)").url == "https://a.example/r?url=javascript%3Aalert(1)")
    }

    @Test("Issue 30: a message's list groups what was removed by host and kind, in the order met")
    func grouping() {
        let a = TrackerFinding(host: "a.example", kind: .invisibleImage)
        let b = TrackerFinding(host: "b.example", kind: .trackingParameters)
        let grouped = Privacy.grouped([a, b, b, a, b])
        #expect(grouped.map(\.finding) == [a, b])
        #expect(grouped.map(\.count) == [2, 3])
    }
}
