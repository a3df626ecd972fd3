import Foundation
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// E-06 (issue 31): a 300-message conversation in a real headless Chromium (Debian's chromium
/// through `scripts/browser_driver.py`) against the web app in this process. It opens on its
/// newest page; older messages come a page at a time, in place, and the message that was first
/// stays where it was on screen; without the script the same link reloads the page with them.
@Suite("Web app: a long conversation is read a page at a time (E-06, issue 31)", .serialized, .timeLimit(.minutes(4)))
@MainActor
struct WebLongConversationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let driver = repository.appendingPathComponent("scripts/browser_driver.py").path
    static let axeScript = repository.appendingPathComponent(".build/axe/axe.min.js").path
    static let screenshots = repository.appendingPathComponent(".build/web-screenshots")

    /// A thread "long" of `count` messages a minute apart from two people, the last two unread.
    static func longThread(accountId: String, count: Int = 300) -> [Email] {
        (1...count).map { n in
            let (from, name) = n % 2 == 0 ? ("alan@example.org", "Alan Turing") : ("grace@example.org", "Grace Hopper")
            var email = MailFixtures.email(accountId: accountId, number: n, threadId: "long", from: from, fromName: name,
                                           subject: n == 1 ? "Release checklist" : "Re: Release checklist",
                                           date: MailFixtures.referenceDate.addingTimeInterval(Double(n) * 60), isRead: n < count - 1)
            email.bodyPlain = "Point \(n) of the checklist is done."
            email.snippet = email.bodyPlain
            return email
        }
    }

    static func messageId(_ n: Int, _ accountId: String) -> String {
        "m-" + MailFixtures.email(accountId: accountId, number: n).id
    }

    @Test("E-06: 300 messages open on the newest 30; 'Show 30 older messages' adds a page in place, the first message stays put; a live refresh keeps the page; axe finds nothing")
    func pagedInBrowser() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.axeScript), "axe-core is missing: run scripts/install-axe.sh")
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store(Self.longThread(accountId: id))
            let browser = try await BrowserSession.start(driver: Self.driver)
            defer { browser.stop() }
            let secret = try #require(try WebSecret.load(at: web.web.configuration.secretURL))
            let signIn = try SignInPage.write(configuration: WebConfiguration(port: web.port, home: web.home), secret: secret, thread: "long")
            try await browser.get(signIn.absoluteString)
            try await browser.wait("return location.pathname === '/mail' && document.querySelector('#conversation') !== null", timeout: 60)

            let ids = { try await browser.js("return Array.from(document.querySelectorAll('#conversation .message')).map(m => m.id)") as? [String] ?? [] }
            #expect(try await ids() == (271...300).map { Self.messageId($0, id) }, "the newest 30, oldest of them first")
            #expect(try await browser.string("return document.querySelector('.older-link').textContent") == "Show 30 older messages")
            #expect(try await browser.string("return document.querySelector('.older-rest').textContent") == "270 not shown yet")
            #expect(try await browser.js("return Array.from(document.querySelectorAll('#conversation details.msg')).slice(-2).every(d => d.open)") as? Bool == true,
                    "the unread ones are open")
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(Self.screenshots.appendingPathComponent("long-conversation-light.png").path)
            try await browser.screenshot(Self.screenshots.appendingPathComponent("long-conversation-dark.png").path, dark: true)
            try await browser.screenshot(Self.screenshots.appendingPathComponent("long-conversation-narrow.png").path, width: 420, height: 860)
            try await browser.setSize(width: 1280, height: 800)
            for scheme in ["light", "dark"] {
                try await browser.call(["cmd": "scheme", "value": scheme])
                let violations = try await browser.axe(script: Self.axeScript)
                #expect(violations.isEmpty, "axe (\(scheme)): \(violations.map { "\($0["id"] ?? "?") (\($0["impact"] ?? "?")): \($0["help"] ?? "")" })")
            }
            try await browser.call(["cmd": "scheme", "value": "light"])

            // A page more, in place: the message that was first does not move on screen.
            let first = Self.messageId(271, id)
            // Scrolled up to the link as a reader would (a click by WebDriver would scroll it into view first).
            try await browser.js("document.querySelector('.older-link').scrollIntoView({block: 'center'})")
            let top = try await browser.number("return document.getElementById('\(first)').getBoundingClientRect().top")
            try await browser.click(".older-link")
            try await browser.wait("return document.querySelectorAll('#conversation .message').length === 60", timeout: 30)
            #expect(try await ids() == (241...300).map { Self.messageId($0, id) })
            let after = try await browser.number("return document.getElementById('\(first)').getBoundingClientRect().top")
            #expect(abs(after - top) <= 2, "the first message moved from \(top) to \(after)")
            #expect(try await browser.js("return document.activeElement.closest('.message') === document.querySelector('#conversation .message')") as? Bool == true,
                    "the focus goes to the first message added")
            #expect(try await browser.string("return location.search").contains("shown=60"))
            #expect(try await browser.string("return document.querySelector('.older-rest').textContent") == "240 not shown yet")
            #expect(try await browser.count("#conversation .msg-fold") == 0, "older pages asked for are not folded away")

            // New mail: the live refresh shows it and keeps the 60.
            try await web.store(Array(Self.longThread(accountId: id, count: 301).suffix(1)))
            try await browser.wait("return document.getElementById('\(Self.messageId(301, id))') !== null", timeout: 30)
            #expect(try await browser.number("return document.querySelectorAll('#conversation .message').length") == 60)
        }
    }

    @Test("E-06 without the script: the page holds the newest 30 and links to 60, back to the message that was first; the last page has no link")
    func pagedWithoutScript() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            try await web.store(Self.longThread(accountId: id, count: 70))
            let (cookie, _) = try await web.signIn()
            let count = { (html: String) in html.matches(of: /<li class="message[ "]/).count }

            let page = try await web.get("/mail?box=inbox&t=long", cookie: cookie)
            #expect(page.status == 200)
            #expect(count(page.text) == 30)
            #expect(page.text.contains("href=\"/mail?box=inbox&amp;t=long&amp;shown=60#\(Self.messageId(41, id))\""), "the link to a page more")
            #expect(page.text.contains("40 not shown yet"))

            let more = try await web.get("/mail?box=inbox&t=long&shown=60", cookie: cookie)
            #expect(count(more.text) == 60)
            #expect(more.text.contains("Show 10 older messages"))
            let all = try await web.get("/mail?box=inbox&t=long&shown=70", cookie: cookie)
            #expect(count(all.text) == 70)
            #expect(!all.text.contains("older-link"))

            // The fragment the script asks for, and a nonsense count read as a page.
            let fragment = try await web.get("/mail/conversation?box=inbox&t=long&shown=abc", cookie: cookie)
            #expect(count(fragment.text) == 30)
        }
    }
}
