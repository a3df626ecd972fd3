import Foundation
import VaultMailCore
import VaultMailMIME
import VaultMailTesting
import VaultMailWeb

/// The tracker shield's figures (issue 30), part of `vaultmail-bench web` (also alone:
/// `vaultmail-bench web-shield`): reading the packaged lists, and what the shield adds to
/// sanitizing a message, over real third-party HTML mail (`../shared/test-material`:
/// SpamAssassin's `nice/` and `spam/`, stalwart's `eml/`; every message with an HTML body)
/// and a newsletter built to the shape of today's (Mailchimp/HubSpot-like: logo, photos, utm
/// links, a click redirect, a hidden preheader image, open beacons).
enum ShieldBenchmarks {
    static func run() async throws {
        print("# shield: the tracker shield over the packaged lists; times are one sanitize of one message, as the frame asks it")
        let load = await Measure.medianMillis(runs: 5) { _ = TrackerShield.load() }
        let shield = TrackerShield.load()
        guard case .on(let version, _, let filters, _) = shield.status else {
            throw BenchFailure(description: "the tracker lists are not installed: scripts/install-deps.sh (webext-ublock-origin-chromium)")
        }
        print("# lists: webext-ublock-origin-chromium \(version), \(filters) filters")
        Measure.report("web-shield-load-lists", load, "ms", n: filters)

        var messages: [(source: String, html: String)] = []
        for (folder, filter) in [("mime/spamassassin-t/t/data", { (path: String) in path.hasPrefix("nice/") || path.hasPrefix("spam/") }),
                                 ("mime/stalwart-mail-parser/eml", { (_: String) in true })] {
            for file in (try? TestMaterial.files(under: folder, where: filter)) ?? [] {
                guard let raw = try? TestMaterial.bytes(folder, file), let html = GMimeMessageParser().parse(raw).textHTML else { continue }
                messages.append((folder + "/" + file, html))
            }
        }
        let real = messages.count
        print("# corpus: \(real) real HTML messages from ../shared/test-material, and 1 built newsletter")
        messages.append(("built newsletter", Self.newsletter))

        let sanitizer = HTMLSanitizer()
        var added: [Double] = [], withShield: [Double] = []
        var trackers: [Int] = [], kept: [Int] = []
        for message in messages {
            let plain = HTMLSanitizer.Options(allowRemoteImages: true)
            let shielded = HTMLSanitizer.Options(allowRemoteImages: true, shield: shield)
            let without = await Measure.medianMillis(runs: 9) { _ = sanitizer.sanitize(message.html, options: plain) }
            let with = await Measure.medianMillis(runs: 9) { _ = sanitizer.sanitize(message.html, options: shielded) }
            added.append(max(0, with - without))
            withShield.append(with)
            let result = sanitizer.sanitize(message.html, options: shielded)
            trackers.append(result.trackers.count)
            kept.append(result.html.matches(of: /<img src="https?:/).count)
        }
        let n = messages.count
        Measure.report("web-shield-added-per-message", Measure.median(added), "ms", n: n)
        Measure.report("web-shield-added-worst", added.max() ?? .nan, "ms", n: n)
        Measure.report("web-shield-sanitize-per-message", Measure.median(withShield), "ms", n: n)
        Measure.report("web-shield-trackers-per-message-real", Double(trackers.prefix(real).reduce(0, +)) / Double(max(real, 1)), "mean", n: real)
        Measure.report("web-shield-messages-with-trackers-real", Double(trackers.prefix(real).filter { $0 > 0 }.count), "messages", n: real)
        Measure.report("web-shield-remote-images-kept-real", Double(kept.prefix(real).reduce(0, +)), "images", n: real)
        Measure.report("web-shield-added-built-newsletter", added.last ?? .nan, "ms", n: 1)
        Measure.report("web-shield-sanitize-built-newsletter", withShield.last ?? .nan, "ms", n: 1)
        if let worst = added.indices.max(by: { added[$0] < added[$1] }) { print("# worst: \(messages[worst].source)") }
        Measure.report("web-shield-trackers-built-newsletter", Double(trackers.last ?? 0), "trackers", n: 1)
        Measure.report("web-shield-images-kept-built-newsletter", Double(kept.last ?? 0), "images", n: 1)
    }

    struct BenchFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// A newsletter of today's shape, about 14 KB: a header logo, 12 product blocks (photo,
    /// text, a utm link), a click-tracking redirect, a hidden preheader image, a CSS beacon and
    /// the open pixels at the end.
    static let newsletter: String = {
        let product = """
            <tr><td style="padding:12px;font-family:Arial,sans-serif"><img src="https://cdn.shop-example.com/products/item-N.jpg" width="560" height="320" alt="Item N">
            <h2 style="margin:8px 0">Item N, now 20% off</h2><p style="margin:0 0 12px;color:#444">Warm, light and made to last: our best seller is back in every size.</p>
            <a href="https://shop-example.com/item/N?utm_source=newsletter&utm_medium=email&utm_campaign=winter&mc_eid=abc123&variant=blue">Shop item N</a></td></tr>
            """
        let products = (1...12).map { product.replacingOccurrences(of: "N", with: "\($0)") }.joined()
        return """
            <html><head><style>.hero{background:url(https://www.google-analytics.com/collect?v=1&t=event)}</style></head><body>
            <div style="display:none;max-height:0"><img src="https://cdn.shop-example.com/preheader.png" width="600" height="20"></div>
            <table width="600" align="center" cellpadding="0" cellspacing="0"><tr><td><img src="https://cdn.shop-example.com/logo.png" width="180" height="60" alt="Shop"></td></tr>
            \(products)
            <tr><td><a href="https://click.mailer-example.com/c?url=https%3A%2F%2Fshop-example.com%2Fsale%3Ffbclid%3Dx%26page%3D2&sig=9f">All offers</a>
            <div class="hero" style="background-image:url('https://mail.mailer-example.com/e/open/abc')">Hello</div>
            <img src="https://example.us1.list-manage.com/track/open.php?u=1a2b&id=3c4d&e=5e6f" width="1" height="1" alt="">
            <img src="https://t.mailer-example.com/o.gif?m=77" alt=""></td></tr></table></body></html>
            """
    }()
}
