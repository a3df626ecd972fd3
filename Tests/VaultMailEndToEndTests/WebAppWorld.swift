import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// The web app in the end-to-end world: the daemon serving it on a free port, a real
/// headless Chromium signed in the way a user is (`vaultmail open`), and the mail a person
/// would have: a conversation with read and unread messages and attachments, real third-party
/// HTML mail, and enough conversations for a second page.
extension EndToEndWorld {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let browserDriver = repository.appendingPathComponent("scripts/browser_driver.py").path
    static let axeScript = repository.appendingPathComponent(".build/axe/axe.min.js").path
    /// Where the screenshots go (docs/web.md shows them).
    static let screenshots = repository.appendingPathComponent(".build/web-screenshots")

    /// The port the daemon's web app listens on.
    func webPort() async throws -> Int {
        let file = home.appendingPathComponent("web-port")
        var port: Int?
        try await eventually("the daemon serving its web app") {
            port = (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return port != nil
        }
        return port!
    }

    /// A browser signed in through `vaultmail open --no-browser`'s page, on the unified inbox.
    /// `loopbackHosts`: names that resolve to 127.0.0.1 in the browser (remote servers stood in for).
    func signedInBrowser(width: Int = 1280, height: Int = 800, landing: String = "/mail", loopbackHosts: [String] = []) async throws -> BrowserSession {
        let browser = try await BrowserSession.start(driver: Self.browserDriver, width: width, height: height, loopbackHosts: loopbackHosts,
                                                     inside: network.map { ["/usr/sbin/ip", "netns", "exec", $0.name] } ?? [])
        let opened = try await vaultmail(["open", "--no-browser"], errors: false)
        try #require(opened.status == 0, "vaultmail open failed: \(opened.text)")
        try await browser.get("file://" + opened.text.trimmingCharacters(in: .whitespacesAndNewlines))
        let ready = landing == "/mail" ? "document.querySelector('#list-pane') !== null" : "document.querySelector('#main') !== null"
        try await browser.wait("return location.pathname === '\(landing)' && \(ready)", timeout: 60)
        return browser
    }

    /// Seeds the mailbox before the daemon's first sync.
    func deliverReadingMail(fillers: Int = 28) async throws {
        let messages = [
            Self.message("Quarterly plan", from: "Grace Hopper <grace@example.org>", messageId: "<plan-1@example.org>",
                         body: "Here is the first draft of the quarterly plan.\nSee https://example.org/plan for the details.",
                         written: Date().addingTimeInterval(-7200)),
            Self.message("Re: Quarterly plan", from: "Alan Turing <alan@example.org>", messageId: "<plan-2@example.org>",
                         headers: ["In-Reply-To: <plan-1@example.org>", "References: <plan-1@example.org>"],
                         body: "Looks good to me.\n\nOn Monday, Grace wrote:\n> Here is the first draft of the quarterly plan.\n> See the details.",
                         written: Date().addingTimeInterval(-3600)),
        ]
        for (index, filler) in (0..<fillers).enumerated() {
            try deliver(Self.message("Note \(index + 1)", from: "Notes <notes@example.net>", body: "Filler note \(filler + 1)."))
        }
        for message in messages { try deliver(message) }
        for name in ["thirdparty/018.eml", "legacy/028.eml", "legacy/035.eml"] {
            try deliver(Data(try TestMaterial.bytes("mime/stalwart-mail-parser/eml", name)))
        }
        try await otherClient.markRead(subject: "Quarterly plan")
        try await otherClient.markRead(subject: "Re: Quarterly plan")
        try deliver(Self.planReply())
    }

    /// The unread third message of "Quarterly plan": HTML with an inline image and a PDF.
    static func planReply() -> Data {
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
        let pdf = Data("%PDF-1.4\n% VaultMail test attachment\n".utf8).base64EncodedString()
        let body = [
            "--outer", "Content-Type: multipart/related; boundary=\"inner\"", "",
            "--inner", "Content-Type: text/html; charset=utf-8", "",
            "<p>Final version attached. <b>Chart</b> below:</p><p><img src=\"cid:chart@example.org\" alt=\"Chart\" width=\"40\" height=\"40\"></p>",
            "--inner", "Content-Type: image/png", "Content-Transfer-Encoding: base64", "Content-ID: <chart@example.org>",
            "Content-Disposition: inline; filename=\"chart.png\"", "", png, "--inner--",
            "--outer", "Content-Type: application/pdf; name=\"plan.pdf\"", "Content-Transfer-Encoding: base64",
            "Content-Disposition: attachment; filename=\"plan.pdf\"", "", pdf, "--outer--",
        ].joined(separator: "\r\n")
        return TestMessage(from: "Grace Hopper <grace@example.org>", to: "Ada <\(address)>", subject: "Re: Quarterly plan",
                           timeZone: .current, messageId: "<plan-3@example.org>", inReplyTo: "<plan-2@example.org>",
                           references: ["<plan-1@example.org>", "<plan-2@example.org>"],
                           contentType: "multipart/mixed; boundary=\"outer\"", body: body).data
    }

    /// HTML written to attack the reader: every way mail could run script or fetch from
    /// `recorder` (a local server that logs each request it gets).
    static func hostileMessage(recorder: Int, subject: String = "Hostile HTML") -> Data {
        let base = "http://127.0.0.1:\(recorder)"
        let html = """
            <html><head><meta http-equiv="refresh" content="0;url=\(base)/refresh"><base href="\(base)/base/">
            <link rel="stylesheet" href="\(base)/link.css"><style>@import url(\(base)/import.css); body{background:url('\(base)/bg.png')} p{color:red}</style>
            <script>window.top.vaultmailPwned = 'script'; fetch('\(base)/script');</script></head>
            <body onload="window.top.vaultmailPwned='onload'">
            <p>Dear customer, <a href="javascript:window.top.vaultmailPwned='link'">click here</a>.</p>
            <img src="\(base)/pixel.gif" width="1" height="1"><img src="x" onerror="window.top.vaultmailPwned='onerror'">
            <img srcset="\(base)/srcset.png 2x"><table background="\(base)/table.png"><tr><td style="background-image:url(\(base)/td.png)">cell</td></tr></table>
            <svg><script>window.top.vaultmailPwned='svg'</script><image href="\(base)/svg.png"/></svg>
            <form action="\(base)/form" method="post"><input name="password"><button>Log in</button></form>
            <iframe src="\(base)/iframe"></iframe><object data="\(base)/object"></object><embed src="\(base)/embed">
            <video poster="\(base)/poster.png"></video><audio src="\(base)/audio.mp3" autoplay></audio>
            <div style="width:expression(alert(1))">expression</div><a href="\(base)/ok" id="real-link">a real link</a>
            </body></html>
            """
        return TestMessage(from: "Mallory <mallory@example.com>", to: "Ada <\(address)>", subject: subject, timeZone: .current,
                           contentType: "text/html; charset=utf-8", body: html).data
    }

    /// Screenshots of the page as it is now: light, dark and narrow (phone width).
    func screenshots(_ browser: BrowserSession, name: String) async throws {
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
        let path = { (variant: String) in Self.screenshots.appendingPathComponent("\(name)-\(variant).png").path }
        try await browser.screenshot(path("light"))
        try await browser.screenshot(path("dark"), dark: true)
        try await browser.screenshot(path("narrow"), width: 420, height: 860)
        try await browser.setSize(width: 1280, height: 800)
        try await browser.call(["cmd": "scheme", "value": "light"])
    }

    /// Clicks the list row whose text contains `text`, scrolling for older conversations until
    /// it is loaded (rows that arrived in the same second are in no particular order).
    func openRow(_ browser: BrowserSession, containing text: String) async throws {
        let find = "Array.from(document.querySelectorAll('#threads .row-link')).find(a => a.textContent.includes(arguments[0]))"
        while try await browser.js("return \(find) === undefined", [text]) as? Bool == true {
            let rows = try await browser.number("return document.querySelectorAll('#threads .row').length")
            try #require(try await browser.js("return document.querySelector('.more a') !== null") as? Bool == true, "no row with '\(text)'")
            try await browser.js("document.querySelector('.more a').scrollIntoView()")
            try await browser.wait("return document.querySelectorAll('#threads .row').length > \(Int(rows))")
        }
        // The conversation shown now is marked, so that when the row clicked is that one's, the
        // wait is for the one the click loads (it replaces the pane), not the one already there.
        try await browser.js("const c = document.querySelector('#conversation'); if (c) c.dataset.beforeClick = '1'; \(find).click()", [text])
        try await browser.wait("return document.querySelector('#conversation:not([data-before-click])') !== null && document.querySelector('#conv-title').textContent.includes(arguments[0])".replacingOccurrences(of: "arguments[0]", with: "'\(text)'"))
    }

    /// axe-core 4.x on the page, light, dark and at phone width: no serious or critical violation.
    func expectAccessible(_ browser: BrowserSession, page: String) async throws {
        try #require(FileManager.default.fileExists(atPath: Self.axeScript), "axe-core is missing: run scripts/install-axe.sh")
        for (variant, scheme, width, height) in [("light", "light", 1280, 800), ("dark", "dark", 1280, 800), ("narrow", "light", 420, 860)] {
            try await browser.call(["cmd": "scheme", "value": scheme])
            try await browser.setSize(width: width, height: height)
            let violations = try await browser.axe(script: Self.axeScript)
                .filter { ["serious", "critical"].contains($0["impact"] as? String ?? "") }
            #expect(violations.isEmpty, "axe on \(page) (\(variant)): \(violations.map { "\($0["id"] ?? "?") (\($0["impact"] ?? "?")): \($0["help"] ?? "") at \($0["nodes"] ?? "")" })")
        }
        try await browser.call(["cmd": "scheme", "value": "light"])
        try await browser.setSize(width: 1280, height: 800)
    }
}
