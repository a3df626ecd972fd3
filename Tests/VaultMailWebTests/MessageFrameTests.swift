import Crypto
import Foundation
import Hummingbird
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// HTML mail in a frame sized to its content (issue 29): the frame runs one script of ours,
/// allowed by its hash, that reports the document's height; the page takes it only from that
/// frame. Real third-party HTML mail at desktop and phone widths; hostile markup that must run
/// nothing, even markup the sanitizer would never let through.
@Suite("Message frames sized to their content (issue 29)", .serialized, .timeLimit(.minutes(6)))
@MainActor
struct MessageFrameTests {
    /// Real HTML mail of different lengths and kinds (third-party test material, read in place):
    /// spam newsletters with tables and blocked remote images, a Big5 mailing-list message, and a Netscape message with two inline (`cid:`) images.
    static let realMail: [(folder: String, file: String)] = [
        ("mime/spamassassin-t/t/data", "nice/dkim/MIMEnowsp_05"),
        ("mime/spamassassin-t/t/data", "spam/006"),
        ("mime/spamassassin-t/t/data", "spam/badmime.txt"),
        ("mime/spamassassin-t/t/data", "nice/cjk/big5-base64.1"),
        ("mime/spamassassin-t/t/data", "spam/009"),
        ("mime/stalwart-mail-parser/eml", "legacy/035.eml"),
        ("mime/stalwart-mail-parser/eml", "thirdparty/018.eml"),
    ]

    @Test("The frame's CSP allows exactly one script, by the SHA-256 of the text the frame carries; the sandbox never allows same-origin")
    func policy() async throws {
        let expected = "'sha256-" + Data(SHA256.hash(data: Array(MessageFrame.heightScript.utf8))).base64EncodedString() + "'"
        #expect(MessageFrame.scriptSource == expected)
        try await WebFixture.with { web in
            var email = MailFixtures.email(accountId: web.account.id, number: 1, subject: "Newsletter")
            email.bodyHTML = "<p>Hello <script>alert(1)</script><b>world</b></p>"
            try await web.store([email])
            let session = try await web.signIn()
            let frame = try await web.get("/message/\(email.id)/body", cookie: session.cookie)
            let policy = try #require(frame.headers["content-security-policy"])
            let directives = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(directives.filter { $0.hasPrefix("script-src") } == ["script-src \(expected)"])
            #expect(!directives.contains { $0.hasPrefix("script-src") && ($0.contains("unsafe") || $0.contains("http") || $0.contains("*")) })
            #expect(directives.contains("sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox"))
            #expect(!policy.contains("allow-same-origin") && !policy.contains("allow-top-navigation"))
            // The one script in the document is ours, byte for byte what the hash names.
            let scripts = frame.text.matches(of: /<script>(.*?)<\/script>/.dotMatchesNewlines()).map { String($0.1) }
            #expect(scripts == [MessageFrame.heightScript])
            #expect(!frame.text.contains("alert(1)"), "the sanitizer still removes mail's scripts")
            // The page's frame: the same sandbox, no same-origin.
            let page = try await web.get("/mail/conversation?box=inbox&t=\(email.threadId)", cookie: session.cookie)
            #expect(page.text.contains("sandbox=\"allow-scripts allow-popups allow-popups-to-escape-sandbox\""))
            #expect(!page.text.contains("allow-same-origin"))
        }
    }

    /// What the frame's document measures itself: its scroll height, its viewport, and the
    /// bottom of its lowest content (margins included) with the body's bottom padding.
    static let measureFrame = """
        const s = document.scrollingElement || document.documentElement, body = document.body;
        // Everything rendered, text included (a Range over the body's contents), and each element's bottom margin.
        const range = document.createRange(); range.selectNodeContents(body);
        let bottom = range.getBoundingClientRect().bottom + scrollY;
        for (const el of body.querySelectorAll('*')) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          bottom = Math.max(bottom, r.bottom + scrollY + (parseFloat(getComputedStyle(el).marginBottom) || 0));
        }
        const images = Array.from(document.images);
        return [s.scrollHeight, s.clientHeight, Math.ceil(bottom) + (parseFloat(getComputedStyle(body).paddingBottom) || 0),
                images.every(i => i.complete), images.filter(i => i.naturalWidth > 0).length, s.scrollWidth - s.clientWidth];
        """

    struct Fit: CustomStringConvertible {
        var frameHeight: Double
        var scrollHeight: Double
        var viewport: Double
        var contentBottom: Double
        var imagesDone: Bool
        var imagesShown: Int
        /// How far the document is wider than the frame (0: no sideways scrolling).
        var overflowX: Double

        var fits: Bool {
            abs(frameHeight - scrollHeight) <= 2 && scrollHeight <= viewport && viewport - contentBottom <= 4 && imagesDone && overflowX <= 0
        }
        var description: String {
            "frame \(frameHeight) px, document scrollHeight \(scrollHeight), viewport \(viewport), content to \(contentBottom), images done \(imagesDone), \(overflowX) px too wide"
        }
    }

    static func fit(_ browser: BrowserSession, frame css: String = "#conversation iframe.mail-frame") async throws -> Fit {
        // On screen, as a reader sees it (Chrome may leave a frame out of view at its old size until then).
        let outside = try await browser.number("const f = document.querySelector('\(css)'); if (f) f.scrollIntoView({ block: 'start' }); return f && f.classList.contains('sized') ? f.clientHeight : -1")
        let inside = try await browser.frameJS(css, measureFrame) as? [Any] ?? []
        func number(_ index: Int) -> Double { (inside.count > index ? inside[index] as? NSNumber : nil)?.doubleValue ?? .nan }
        return Fit(frameHeight: outside, scrollHeight: number(0), viewport: number(1), contentBottom: number(2),
                   imagesDone: inside.count > 3 && inside[3] as? Bool == true, imagesShown: Int(number(4)), overflowX: number(5))
    }

    /// Waits until the frame fits its content (images loaded, the height reported and applied).
    static func settledFit(_ browser: BrowserSession, frame css: String = "#conversation iframe.mail-frame") async throws -> Fit {
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        var last = try await fit(browser, frame: css)
        while !last.fits, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            last = try await fit(browser, frame: css)
        }
        return last
    }

    /// The mail whose frame docs/web shows (frame-newsletter-*.png).
    static let screenshotted = ["nice/dkim/MIMEnowsp_05": "frame-newsletter", "legacy/035.eml": "frame-inline-images"]

    static func screenshots(_ browser: BrowserSession, name: String, width: Int) async throws {
        guard let base = screenshotted[name] else { return }
        try FileManager.default.createDirectory(at: WebWritingBrowserTests.screenshots, withIntermediateDirectories: true)
        let shot = { (variant: String) in WebWritingBrowserTests.screenshots.appendingPathComponent("\(base)-\(variant).png").path }
        // The frame's top just below the conversation's (sticky) header.
        try await browser.js("""
            const f = document.querySelector('#conversation iframe.mail-frame'), pane = document.querySelector('#reading-pane');
            pane.scrollTop += f.getBoundingClientRect().top - document.querySelector('.conv-head').getBoundingClientRect().bottom - 8;
            """)
        if width == 1280 {
            try await browser.screenshot(shot("light"))
            try await browser.screenshot(shot("dark"), dark: true)
            try await browser.call(["cmd": "scheme", "value": "light"])
        } else {
            try await browser.screenshot(shot("narrow"), width: 420, height: 860)
        }
        try await browser.setSize(width: width, height: width == 1280 ? 800 : 860)
    }

    static func signedIn(_ web: WebFixture, thread: String? = nil) async throws -> BrowserSession {
        let browser = try await BrowserSession.start(driver: WebWritingBrowserTests.driver)
        let secret = try #require(try WebSecret.load(at: web.web.configuration.secretURL))
        let signIn = try SignInPage.write(configuration: WebConfiguration(port: web.port, home: web.home), secret: secret, thread: thread)
        try await browser.get(signIn.absoluteString)
        try await browser.wait("return location.pathname === '/mail' && document.querySelector('#list-pane') !== null", timeout: 60)
        return browser
    }

    @Test("Real HTML mail at 1280×800 and 420 px: the frame is as tall as its document (±2 px), no inner scrollbar either way, no blank below; without JavaScript the server's guess and a scrollbar")
    func realNewsletters() async throws {
        try await WebFixture.with { web in
            var stored: [IncomingEmail] = []
            for (index, mail) in Self.realMail.enumerated() {
                let incoming = StoredMail.incoming(try TestMaterial.bytes(mail.folder, mail.file), accountId: web.account.id,
                                                   folder: web.folders.of(.inbox), number: index)
                try #require(incoming.email.bodyHTML != nil, "\(mail.file) has no HTML body")
                stored.append(incoming)
            }
            try await web.app.emailRepository.saveEmails(stored)
            let browser = try await Self.signedIn(web)
            defer { browser.stop() }
            var heights: [String: [Double]] = [:]
            for (width, height) in [(1280, 800), (420, 860)] {
                try await browser.setSize(width: width, height: height)
                for (mail, incoming) in zip(Self.realMail, stored) {
                    try await browser.get("\(web.origin)/mail?box=inbox&t=\(incoming.email.threadId)")
                    try await browser.wait("return document.querySelector('#conversation iframe.mail-frame.sized') !== null", timeout: 30)
                    let fit = try await Self.settledFit(browser)
                    #expect(fit.fits, "\(mail.file) at \(width) px: \(fit)")
                    heights[mail.file, default: []].append(fit.frameHeight)
                    if mail.file == "legacy/035.eml" { #expect(fit.imagesShown == 2, "the two inline images show: \(fit)") }
                    try await Self.screenshots(browser, name: mail.file, width: width)
                }
            }
            // Narrower is taller: the text wraps again and the frame follows.
            #expect(heights.values.contains { $0[1] > $0[0] + 100 }, "\(heights)")
            #expect(heights.values.contains { $0[1] > 800 }, "a long message at phone width: \(heights)")
            print("frame heights (1280 px, 420 px):", heights.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })

            // A width change while it is open (the window resized): the frame reports again.
            try await browser.setSize(width: 1280, height: 800)
            try await browser.get("\(web.origin)/mail?box=inbox&t=\(stored[0].email.threadId)")
            try await browser.wait("return document.querySelector('#conversation iframe.mail-frame.sized') !== null", timeout: 30)
            let wide = try await Self.settledFit(browser)
            try await browser.setSize(width: 420, height: 860)
            try await browser.wait("return document.querySelector('#conversation iframe.mail-frame').clientHeight > \(Int(wide.frameHeight))", timeout: 20)
            let narrow = try await Self.settledFit(browser)
            #expect(narrow.fits, "after the resize: \(narrow)")
            try await browser.setSize(width: 1280, height: 800)
            try await browser.wait("return document.querySelector('#conversation iframe.mail-frame').clientHeight < \(Int(narrow.frameHeight))", timeout: 20)
            #expect(try await Self.settledFit(browser).fits)

            // Without JavaScript: the server's guess (a height class), and the frame scrolls.
            try await browser.setJavaScript(false)
            try await browser.get("\(web.origin)/mail?box=inbox&t=\(stored[1].email.threadId)")
            let classes = try #require(try await browser.attribute("#conversation iframe.mail-frame", "class"))
            #expect(classes.contains(/\bh\d+\b/) && !classes.contains("sized"), "\(classes)")
            try await browser.setJavaScript(true)
        }
    }

    @Test("A message laid out wider than a phone is zoomed to the frame's width there, not scrolled sideways; on a wide screen it is left as it is")
    func zoomedToFit() async throws {
        try await WebFixture.with { web in
            var email = MailFixtures.email(accountId: web.account.id, number: 1, subject: "Wide newsletter")
            // One line that cannot wrap, about 500 px wide: it fits the frame at 1920 px, not at 420.
            email.bodyHTML = "<table><tr><td style=\"white-space:nowrap\">" + String(repeating: "Wide news ", count: 4) + "in one line</td></tr></table>"
                + String(repeating: "<p>A paragraph of the newsletter that wraps as usual.</p>", count: 8)
            try await web.store([email])
            let browser = try await Self.signedIn(web, thread: email.threadId)
            defer { browser.stop() }
            try await browser.setSize(width: 1920, height: 1080)
            try await browser.wait("const f = document.querySelector('#conversation iframe.mail-frame.sized'); return f !== null && f.clientWidth > 560", timeout: 30)
            let wide = try await Self.settledFit(browser)
            #expect(wide.fits, "\(wide)")
            let unzoomed = try await browser.frameJS("#conversation iframe.mail-frame", "const c = document.getElementById('vm-content'); return [c.style.zoom, c.scrollWidth, c.clientWidth]") as? [Any]
            #expect(unzoomed?.first as? String == "", "\(unzoomed ?? [])")
            try await browser.setSize(width: 420, height: 860)
            try await browser.wait("return document.querySelector('#conversation iframe.mail-frame').clientWidth < 400", timeout: 20)
            let narrow = try await Self.settledFit(browser)
            #expect(narrow.fits, "\(narrow)")
            let zoom = Double(try await browser.frameJS("#conversation iframe.mail-frame", "return document.getElementById('vm-content').style.zoom") as? String ?? "") ?? 1
            #expect(zoom > 0.4 && zoom < 0.9, "zoomed to fit: \(zoom)")
        }
    }

    @Test("A folded message's frame is sized when it is opened; axe finds nothing serious light, dark or at 420 px")
    func foldedThenOpened() async throws {
        try #require(FileManager.default.fileExists(atPath: WebWritingBrowserTests.axeScript), "axe-core is missing: run scripts/install-axe.sh")
        try await WebFixture.with { web in
            let inbox = web.folders.of(.inbox)
            var older = StoredMail.incoming(try TestMaterial.bytes("mime/spamassassin-t/t/data", "nice/dkim/MIMEnowsp_05"), accountId: web.account.id,
                                            folder: inbox, isRead: true, number: 1)
            var newer = StoredMail.incoming(try TestMaterial.bytes("mime/stalwart-mail-parser/eml", "legacy/035.eml"), accountId: web.account.id,
                                            folder: inbox, number: 2)
            newer.email.threadId = older.email.threadId
            older.email.subject = newer.email.subject
            try await web.app.emailRepository.saveEmails([older, newer])
            let browser = try await Self.signedIn(web, thread: older.email.threadId)
            defer { browser.stop() }
            let first = "#conversation .message:first-child iframe.mail-frame"
            try await browser.wait("return document.querySelectorAll('#conversation iframe.mail-frame').length === 2", timeout: 30)
            #expect(try await browser.js("return document.querySelector('#conversation .message:first-child details').open") as? Bool == false)
            try await browser.click("#conversation .message:first-child summary")
            try await browser.wait("return document.querySelector('\(first)').classList.contains('sized')", timeout: 30)
            let fit = try await Self.settledFit(browser, frame: first)
            #expect(fit.fits && fit.frameHeight > 1000, "\(fit)")
            for (variant, scheme, width, height) in [("light", "light", 1280, 800), ("dark", "dark", 1280, 800), ("narrow", "light", 420, 860)] {
                try await browser.call(["cmd": "scheme", "value": scheme])
                try await browser.setSize(width: width, height: height)
                let violations = try await browser.axe(script: WebWritingBrowserTests.axeScript)
                    .filter { ["serious", "critical"].contains($0["impact"] as? String ?? "") }
                #expect(violations.isEmpty, "axe (\(variant)): \(violations)")
            }
        }
    }

    @Test("Hostile HTML in the app runs nothing; a height posted by anything but the message's frame is ignored")
    func hostileInTheApp() async throws {
        try await WebFixture.with { web in
            var email = MailFixtures.email(accountId: web.account.id, number: 1, from: "mallory@example.com", fromName: "Mallory", subject: "Hostile HTML")
            email.bodyHTML = Self.hostile
            try await web.store([email])
            let browser = try await Self.signedIn(web, thread: email.threadId)
            defer { browser.stop() }
            try await browser.wait("return document.querySelector('#conversation iframe.mail-frame.sized') !== null", timeout: 30)
            let fit = try await Self.settledFit(browser)
            #expect(fit.fits, "\(fit)")
            _ = try await browser.frameJS("#conversation iframe.mail-frame", "const a = document.getElementById('js'); if (a) a.click(); return true")
            #expect(try await browser.js("return typeof window.vaultmailPwned") as? String == "undefined")
            #expect(try await browser.frameJS("#conversation iframe.mail-frame", "return [document.title, typeof window.vaultmailPwned]") as? [String] == ["", "undefined"])

            // The page itself, and a frame that is not the message's, post heights: both ignored.
            let before = try await browser.number("return document.querySelector('#conversation iframe.mail-frame').clientHeight")
            try await browser.js("""
                window.postMessage({ vaultmailFrameHeight: 7777 }, '*');
                const other = document.createElement('iframe');
                other.id = 'other'; other.setAttribute('sandbox', 'allow-scripts'); other.src = document.querySelector('#conversation iframe.mail-frame').src;
                document.body.append(other);
                """)
            _ = try await browser.frameJS("#other", "window.parent.postMessage({ vaultmailFrameHeight: 7777 }, '*'); return true")
            // A message from the frame itself (WebDriver runs this in the frame's window) is taken: the listener works.
            _ = try await browser.frameJS("#conversation iframe.mail-frame", "window.parent.postMessage({ vaultmailFrameHeight: 321 }, '*'); return true")
            try await browser.wait("return document.querySelector('#conversation iframe.mail-frame').clientHeight === 321", timeout: 10)
            #expect(before != 321 && before != 7777)
            // Absurd heights are clamped.
            _ = try await browser.frameJS("#conversation iframe.mail-frame", "window.parent.postMessage({ vaultmailFrameHeight: 1e9 }, '*'); return true")
            try await browser.wait("return document.querySelector('#conversation iframe.mail-frame').clientHeight === 100000", timeout: 10)
            _ = try await browser.frameJS("#conversation iframe.mail-frame", "window.parent.postMessage({ vaultmailFrameHeight: -5 }, '*'); return true")
            try await browser.wait("return document.querySelector('#conversation iframe.mail-frame').clientHeight === 24", timeout: 10)
            #expect(try await browser.number("return document.querySelector('#conversation iframe.mail-frame').clientHeight") != 7777)
        }
    }

    /// Markup written to run: script, event handlers, javascript: URLs, a meta refresh, an SVG
    /// handler, a nested frame; each would set a title, a global or post a height.
    static let hostile = """
        <html><head><meta http-equiv="refresh" content="0;url=javascript:document.title='refresh'">
        <script>window.vaultmailPwned = 'script'; document.title = 'script'; parent.postMessage({ vaultmailFrameHeight: 4242 }, '*');</script></head>
        <body onload="document.title='onload'; parent.postMessage({ vaultmailFrameHeight: 4343 }, '*')">
        <p>Dear customer, <a id="js" href="javascript:document.title='link';parent.postMessage({vaultmailFrameHeight:4444},'*')">click here</a>.</p>
        <img src="x" onerror="document.title='onerror'; parent.postMessage({ vaultmailFrameHeight: 4545 }, '*')">
        <svg onload="document.title='svg'"><script>document.title='svg-script'</script></svg>
        <iframe srcdoc="<script>parent.parent.postMessage({vaultmailFrameHeight:4646},'*')</script>"></iframe>
        <div style="height:300px">tall</div>
        </body></html>
        """

    @Test("Markup the sanitizer would never pass, served with the frame's CSP: only our hashed script runs (it reports a height), nothing of the mail's")
    func cspAloneStopsMailScripts() async throws {
        // The frame's document exactly as the app writes it, but around the raw hostile markup.
        let frame = MessageFrame.document(Markup(sanitized: SanitizedHTML(html: Self.hostile, blockedRemoteContent: 0, contentIds: []))).html
        let parent = """
            <!doctype html><html><head><title>parent</title>
            <script>window.heights = []; addEventListener('message', e => {
              const f = document.getElementById('f');
              if (f && e.source === f.contentWindow) window.heights.push([e.origin, e.data.vaultmailFrameHeight]);
            });</script></head><body>
            <iframe id="f" sandbox="\(SecurityHeaders.frameSandbox)" src="/frame"></iframe></body></html>
            """
        let router = Router()
        router.get("/parent") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: parent)))
        }
        router.get("/frame") { _, _ -> Response in
            var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
            headers[.contentSecurityPolicy] = SecurityHeaders.messagePolicy(remoteImages: .none)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: frame)))
        }
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { portSink.yield($0.localAddress?.port ?? 0) })
        let server = Task { try await app.run() }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())

        let browser = try await BrowserSession.start(driver: WebWritingBrowserTests.driver)
        defer { browser.stop() }
        try await browser.get("http://127.0.0.1:\(port)/parent")
        // Listening before the frame exists, so no report can be missed; a later one is the whole height.
        try await browser.wait("return window.heights.some(h => h[1] > 300)", timeout: 30)
        _ = try await browser.frameJS("#f", "document.getElementById('js').click(); return true")
        try await browser.wait("return true")
        let state = try await browser.frameJS("#f", "return [document.readyState, document.title, typeof window.vaultmailPwned]") as? [String]
        #expect(state == ["complete", "", "undefined"], "\(state ?? [])")
        let heights = try await browser.js("return window.heights") as? [[Any]] ?? []
        #expect(heights.allSatisfy { $0.first as? String == "null" }, "an opaque origin: \(heights)")
        let values = heights.compactMap { ($0.last as? NSNumber)?.intValue }
        #expect(!values.contains { [4242, 4343, 4444, 4545, 4646].contains($0) }, "mail's script ran: \(values)")
        #expect(try await browser.string("return document.title") == "parent")
        // The hostile markup is really there (no sanitizer here): the CSP alone kept it from running.
        let present = try await browser.frameJS("#f", "return [document.scripts.length, document.querySelectorAll('[onerror], [onload]').length, document.querySelectorAll('iframe[srcdoc]').length]") as? [Int]
        #expect(present == [2, 3, 1], "two HTML scripts (ours and theirs), three handlers, a nested frame: \(present ?? [])")
    }
}
