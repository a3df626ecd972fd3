import Foundation
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// Hostile text in every field a page shows (issue 28): subjects, names, addresses, file names,
/// folder and account names, signatures, search queries, notices, the new-mail banner and the
/// connection notice. Server-rendered pages carry it escaped; in Chromium no script runs and
/// the text reads as it was written.
@Suite("Hostile text is shown, never run (issue 28)", .serialized, .timeLimit(.minutes(4)))
@MainActor
struct WebHostileTextTests {
    /// Script tags, attribute and `'` breakouts, a `</script>`, a JSON breakout, U+2028, and a
    /// quote with a combining mark (one character to Swift, two scalars to the browser).
    static let evil = #"<script>window.pwned=1</script>"><img src=x onerror="window.pwned=1">'><svg onload=window.pwned=1>"}"#
        + "\u{2028}\"\u{301} onmouseover=window.pwned=1 x=\""

    /// What the payload must never look like in a page's markup.
    static func expectInert(_ html: String, _ page: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for raw in ["<script>window", "<img src=x", "<svg onload", "\"\u{301}", "'><"] {
            #expect(!html.contains(raw), "\(page) carries \(raw) unescaped", sourceLocation: sourceLocation)
        }
        #expect(html.contains("&lt;script&gt;window.pwned=1&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;&#39;&gt;"),
                "\(page) does not show the text", sourceLocation: sourceLocation)
    }

    /// An account, a folder, a conversation with an attachment, a VIP and a muted conversation,
    /// every name of them hostile.
    static func hostileMail(_ web: WebFixture) async throws -> (account: Account, email: Email) {
        let evil = Self.evil
        let account = MailFixtures.account(name: evil, email: "evil@example.com", id: "acct-evil")
        try await web.app.accountRepository.addAccount(account)
        let folder = Folder(accountId: web.account.id, name: evil, path: "Evil", folderType: .custom)
        try await web.app.emailRepository.saveFolders([folder])
        var email = MailFixtures.email(accountId: web.account.id, number: 1, from: "x@example.com", fromName: evil, subject: evil, snippet: evil)
        email.toAddresses = [Participant(name: evil, email: "me@example.com")]
        email.ccAddresses = [Participant(name: evil, email: "cc@example.com")]
        email.bodyPlain = "Hello\n" + evil + "\nhttps://example.org/" + evil
        email.hasAttachments = true
        let attachment = Attachment(emailId: email.id, filename: evil, mimeType: "text/plain", sizeBytes: 9, partId: "2")
        try await web.app.emailRepository.saveEmails([
            IncomingEmail(email: email, links: [EmailFolder(emailId: email.id, folderId: web.folders.of(.inbox).id)], attachments: [attachment]),
        ])
        web.app.settingsStore.setSignature(evil, for: account.id)
        web.app.settingsStore.addVIPContact(evil + "@example.com")
        web.app.settingsStore.mutedThreadIds.insert(email.threadId)
        return (account, email)
    }

    @Test("Every page that shows a hostile field carries it escaped")
    func serverRendered() async throws {
        try await WebFixture.with { web in
            let (account, email) = try await Self.hostileMail(web)
            let session = try await web.signIn()
            let q = WebForm.escape(Self.evil)
            let pages = [
                "/mail", "/mail?t=\(WebForm.escape(email.threadId))", "/mail?notice=\(q)", "/mail/search?q=\(q)",
                "/mail/counts?box=inbox", "/settings", "/settings?notice=\(q)", "/settings/account?id=\(account.id)",
                "/settings/account/remove?id=\(account.id)", "/compose?kind=reply&email=\(WebForm.escape(email.id))",
                "/compose?to=\(q)&problem=\(q)", "/message/\(WebForm.escape(email.id))/body",
                "/mail/conversation?t=\(WebForm.escape(email.threadId))", "/welcome/servers?email=x%40example.com&displayName=\(q)",
            ]
            for page in pages {
                let reply = try await web.get(page, cookie: session.cookie)
                #expect(reply.status < 500, "\(page): \(reply.status)")
                Self.expectInert(reply.text, page)
            }
            // A query that cannot be read is refused in plain text, which no browser runs.
            let refused = try await web.get("/mail/list?q=\(q)", cookie: session.cookie)
            #expect(refused.status == 400 && refused.headers["content-type"] == "text/plain; charset=utf-8")
        }
    }

    @Test("In Chromium no hostile field runs a script: the list, the conversation, a search, the new-mail banner and the connection notice show the text as written")
    func browser() async throws {
        try await WebFixture.with { web in
            let (_, email) = try await Self.hostileMail(web)
            let browser = try await BrowserSession.start(driver: WebWritingBrowserTests.driver)
            defer { browser.stop() }
            let secret = try #require(try WebSecret.load(at: web.web.configuration.secretURL))
            let signIn = try SignInPage.write(configuration: WebConfiguration(port: web.port, home: web.home), secret: secret, thread: email.threadId)
            try await browser.get(signIn.absoluteString)
            try await browser.wait("return location.pathname === '/mail' && document.querySelector('#conversation') !== null", timeout: 60)
            let evil = Self.evil, literal = Pages.jsonText(evil)
            #expect(try await browser.js("return document.querySelector('#conv-title').textContent", []) as? String == evil)
            #expect(try await browser.js("return document.querySelector('.row .subject').textContent", []) as? String == evil)
            #expect(try await browser.js("return document.querySelector('.att-name').textContent", []) as? String == evil)
            #expect(try await browser.js("return [...document.querySelectorAll('.box-name')].some(e => e.textContent === arguments[0])", [evil]) as? Bool == true)

            // Arriving over the event stream (JSON in server-sent events): the connection notice
            // first (a new stream starts with it, so the page has its stream once it shows), then
            // the new-mail banner.
            await web.web.events.setConnectionProblem(evil, account: "work")
            try await browser.wait("const d = document.querySelector('.connection-detail'); return d !== null && d.textContent.includes(\(literal))", timeout: 20)
            await web.web.events.publish(.newMail([NewMailSummary(threadId: "another", sender: evil, subject: evil, preview: evil)]))
            try await browser.wait("return [...document.querySelectorAll('#banners .banner strong')].some(e => e.textContent === \(literal))", timeout: 20)
            #expect(try await browser.js("return document.querySelector('#banners .banner span').textContent", []) as? String == evil + " — " + evil)

            // A search for the text itself, swapped in by the search script.
            try await browser.get("\(web.origin)/mail/search?q=\(WebForm.escape(evil))")
            try await browser.wait("const e = document.querySelector('#list-title'); return e !== null && e.textContent.includes('<script>window.pwned=1</script>')", timeout: 30)

            #expect(try await browser.js("return typeof window.pwned", []) as? String == "undefined", "a hostile field ran a script")
            #expect(try await browser.count("#conversation img[src='x'], #list-pane img[src='x'], svg[onload]") == 0)
        }
    }
}
