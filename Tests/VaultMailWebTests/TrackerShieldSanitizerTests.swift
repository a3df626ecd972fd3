import Testing
import VaultMailCore
@testable import VaultMailWeb

/// The sanitizer with the tracker shield (issue 30): with images shown, trackers go and real
/// images stay; with images blocked nothing remote stays, and trackers are not offered as
/// images to show; every link is cleaned.
@Suite("Tracker shield in the sanitizer (issue 30)")
struct TrackerShieldSanitizerTests {
    /// The packaged lists (scripts/install-deps.sh installs them).
    static let shield = TrackerShield.load()
    let sanitizer = HTMLSanitizer()

    /// A newsletter shaped like Mailchimp's and HubSpot's: a table layout, a logo and a product
    /// photo, utm links, a click redirect carrying its destination, a hidden preheader image, a
    /// CSS background from a tracker, and the open beacons at the end.
    static let newsletter = """
        <html><head><style>.hero{background:url(https://www.google-analytics.com/collect?v=1&t=event)}</style></head>
        <body><table width="600" align="center"><tr><td>
        <div style="display:none;max-height:0"><img src="https://cdn.shop-example.com/preheader.png" width="600" height="20"></div>
        <img src="https://cdn.shop-example.com/images/logo.png" width="180" height="60" alt="Shop">
        <h1>Winter sale</h1>
        <p><img src="https://cdn.shop-example.com/images/boots.jpg" width="560" alt="Boots"></p>
        <p><a href="https://shop-example.com/boots?utm_source=newsletter&utm_medium=email&utm_campaign=winter&id=42&mc_eid=abc123">Shop boots</a>
        <a href="https://click.mailer-example.com/c?url=https%3A%2F%2Fshop-example.com%2Fsale%3Ffbclid%3Dx%26page%3D2&sig=9f">All offers</a></p>
        <div class="hero" style="background-image:url('https://mail.mailer-example.com/e/open/abc')">Hello</div>
        <img src="https://example.us1.list-manage.com/track/open.php?u=1a2b&id=3c4d&e=5e6f" width="1" height="1" alt="">
        <img src="https://t.mailer-example.com/o.gif?m=77" alt="">
        <img src="https://cdn.shop-example.com/spacer.gif" style="width:1px;height:1px" alt="">
        </td></tr></table></body></html>
        """

    @Test("Issue 30: images shown: the logo and the photo stay; listed, invisible and beacon-shaped images and CSS fetches go; links are cleaned")
    func imagesShown() throws {
        try #require(Self.listsRead, "the packaged tracker lists are not installed: scripts/install-deps.sh")
        let result = sanitizer.sanitize(Self.newsletter, options: .init(allowRemoteImages: true, shield: Self.shield))
        let html = result.html
        #expect(html.contains("https://cdn.shop-example.com/images/logo.png"))
        #expect(html.contains("https://cdn.shop-example.com/images/boots.jpg"))
        for tracker in ["list-manage.com", "o.gif", "spacer.gif", "preheader.png", "google-analytics", "/e/open/"] {
            #expect(!html.contains(tracker), "\(tracker) in \(html)")
        }
        #expect(html.contains(#"href="https://shop-example.com/boots?id=42""#))
        #expect(html.contains(#"title="https://shop-example.com/boots?id=42""#))
        #expect(html.contains(#"href="https://shop-example.com/sale?page=2""#))
        for parameter in ["utm_", "mc_eid", "fbclid", "click.mailer-example.com"] {
            #expect(!html.contains(parameter), "\(parameter) in \(html)")
        }
        let kinds = Dictionary(grouping: result.trackers, by: \.kind).mapValues(\.count)
        // list-manage.com, google-analytics.com, /o.gif? (EasyPrivacy names it too)
        #expect(kinds[.listedTracker] == 3, "\(result.trackers)")
        #expect(kinds[.invisibleImage] == 2, "\(result.trackers)")  // the hidden preheader, the 1 px spacer
        #expect(kinds[.openBeacon] == 1, "\(result.trackers)")  // the CSS background at /e/open/
        #expect(kinds[.trackingParameters] == 2 && kinds[.clickRedirect] == 1, "\(result.trackers)")
        #expect(result.blockedRemoteContent == 0)
    }

    @Test("Issue 30: images blocked: nothing remote stays, the same trackers are found, and only the real images are offered")
    func imagesBlocked() throws {
        try #require(Self.listsRead, "the packaged tracker lists are not installed: scripts/install-deps.sh")
        let shown = sanitizer.sanitize(Self.newsletter, options: .init(allowRemoteImages: true, shield: Self.shield))
        let blocked = sanitizer.sanitize(Self.newsletter, options: .init(shield: Self.shield))
        #expect(!blocked.html.contains("src=\"http"))
        #expect(!blocked.html.contains("url(\"http"))
        #expect(blocked.trackers == shown.trackers)
        #expect(blocked.blockedRemoteContent == 2, "the logo and the photo")
        #expect(blocked.html.contains(#"href="https://shop-example.com/boots?id=42""#))
    }

    @Test("Issue 30: without the shield nothing is removed but what images-blocked removes (as before issue 30)")
    func withoutShield() {
        let result = sanitizer.sanitize(Self.newsletter, options: .init(allowRemoteImages: true))
        #expect(result.trackers.isEmpty)
        #expect(result.html.contains("list-manage.com"))
        #expect(result.html.contains("utm_source"))
    }

    static var listsRead: Bool {
        if case .on = shield.status { return true }
        return false
    }
}
