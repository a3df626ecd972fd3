import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 12 in a real browser: signing in with `vaultmail open`, reading the list and a
/// conversation, attachments, endless scrolling, pages without JavaScript, accessibility.
@Suite("Web app in a browser: reading (issue 12)", .serialized)
struct WebAppReadingTests {
    @Test("Sign in with vaultmail open, read the inbox, open a conversation (read ones folded), download an attachment, scroll for more")
    func reading() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail()
            try await world.addAccount()
            try await world.startDaemon()
            // Before signing in: the page that says how.
            let stranger = try await BrowserSession.start(driver: EndToEndWorld.browserDriver)
            defer { stranger.stop() }
            try await stranger.get("http://127.0.0.1:\(try await world.webPort())/mail")
            #expect(try await stranger.string("return document.body.innerText").contains("vaultmail open"))
            try await world.expectAccessible(stranger, page: "the sign-in page")
            try await world.screenshots(stranger, name: "signin")
            stranger.stop()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            let cookie = try #require(try await browser.cookies().first { $0["name"] as? String == "vaultmail_session" })
            #expect(cookie["httpOnly"] as? Bool == true)
            #expect(cookie["sameSite"] as? String == "Strict")
            #expect(try await browser.string("return document.cookie") == "", "the session cookie is readable by scripts")

            // The list: 25 rows, newest first; endless scrolling brings the older conversations.
            #expect(try await browser.number("return document.querySelectorAll('#threads .row').length") == 25)
            try await world.expectAccessible(browser, page: "the inbox")
            try await world.screenshots(browser, name: "inbox")
            try await browser.js("document.querySelector('#threads').scrollTop = 1e9; document.querySelector('.more a').scrollIntoView()")
            try await browser.wait("return document.querySelectorAll('#threads .row').length > 25")
            #expect(try await browser.number("return document.querySelectorAll('#threads .row').length") == 32)

            // The row label a screen reader reads: participants, count, subject, preview, time, then the state in words.
            let label = try await browser.string("return Array.from(document.querySelectorAll('#threads .row-link')).map(a => a.getAttribute('aria-label')).find(l => l.includes('Quarterly'))")
            #expect(label.hasPrefix("From Grace, Alan (3), ") || label.hasPrefix("From Alan, Grace (3), "), "\(label)")
            #expect(label.contains("Quarterly plan, "), "\(label)")
            #expect(label.hasSuffix(", unread, not starred, has attachments, Primary"), "the state, then the category (issue 15): \(label)")

            // The Outbox (empty here) and another folder.
            let base = try await browser.url.components(separatedBy: "/mail")[0]
            try await browser.get("\(base)/mail?box=outbox")
            try await world.expectAccessible(browser, page: "the Outbox")
            try await browser.get("\(base)/mail")

            // ? lists the shortcuts, Escape closes them, / goes to the search box.
            try await browser.js("document.activeElement.blur()")
            try await browser.keys(["?"])
            try await browser.wait("return document.querySelector('#shortcuts').open")
            try await world.expectAccessible(browser, page: "the keyboard shortcuts")
            try await browser.keys(["ESCAPE"])
            try await browser.wait("return !document.querySelector('#shortcuts').open")
            try await browser.keys(["/"])
            try await browser.wait("return document.activeElement.id === 'q'")
            try await browser.keys(["ESCAPE"])

            // Opening the conversation: oldest first, read messages folded, the unread one open.
            try await browser.js("document.querySelector('#threads').scrollTop = 0")
            try await world.openRow(browser, containing: "Quarterly plan")
            #expect(try await browser.number("return document.querySelectorAll('#conversation .message').length") == 3)
            let open = try await browser.js("return Array.from(document.querySelectorAll('#conversation details.msg')).map(d => d.open)") as? [Bool]
            #expect(open == [false, false, true], "read messages folded, the unread one open: \(open ?? [])")
            #expect(try await browser.string("return location.search").contains("t="))
            // The inline image is shown, not listed; the PDF is listed and downloads as an attachment.
            #expect(try await browser.string("return Array.from(document.querySelectorAll('.attachments .att-name')).map(a => a.textContent).join(',')") == "plan.pdf")
            let download = try await browser.js("""
                const a = document.querySelector('.attachments a');
                const r = new XMLHttpRequest(); r.open('GET', a.href, false); r.send();
                return [r.status, r.getResponseHeader('Content-Disposition'), r.getResponseHeader('Content-Type'), r.responseText.slice(0, 8)];
                """) as? [Any]
            let disposition = download?[1] as? String
            #expect(download?[0] as? Int == 200)
            #expect(disposition?.hasPrefix("attachment; filename=\"plan.pdf\"") == true, "\(disposition ?? "no Content-Disposition")")
            #expect(download?[2] as? String == "application/pdf")
            #expect(download?[3] as? String == "%PDF-1.4")
            let inline = try await browser.frameJS("#conversation .message:last-child iframe", "const i = document.querySelector('img'); return i ? [i.complete, i.naturalWidth, i.src.slice(0, 15)] : null") as? [Any]
            #expect(inline?[1] as? Int == 1, "the cid: image shows from the store: \(String(describing: inline))")

            // Opening it marked the conversation read, on the server too.
            try await world.eventually("the conversation read on the server") {
                try await world.otherClient.messages(in: "INBOX").filter { $0.subject == "Re: Quarterly plan" }.allSatisfy { $0.flags.contains("\\Seen") }
            }
            try await browser.wait("return document.querySelector('#threads .row.open') && !document.querySelector('#threads .row.open').classList.contains('unread')")
            try await world.expectAccessible(browser, page: "a conversation")
            try await world.screenshots(browser, name: "conversation")

            // Real third-party HTML, in its sandboxed frame.
            try await browser.get("\(try await browser.url.components(separatedBy: "/mail")[0])/mail")
            try await world.openRow(browser, containing: "Outlook")
            try await browser.wait("return document.querySelector('#conversation iframe') !== null")
            #expect(try await browser.string("return document.querySelector('#conversation iframe').getAttribute('sandbox')") == "allow-scripts allow-popups allow-popups-to-escape-sandbox")
            let text = try await browser.frameJS("#conversation iframe", "return document.body.innerText") as? String ?? ""
            #expect(text.count > 20, "the Outlook message's text shows: \(text.prefix(200))")
            try await world.screenshots(browser, name: "html-message")

            // A notification click opens the conversation here (`vaultmail open --thread`, the daemon's default).
            let plan = try #require(try await world.inboxThreads().first { $0.subject.contains("Quarterly plan") })
            let opened = try await world.vaultmail(["open", "--no-browser", "--thread", String(plan.id.prefix(10))], errors: false)
            try #require(opened.status == 0, "\(opened.text)")
            try await browser.get("file://" + opened.text.trimmingCharacters(in: .whitespacesAndNewlines))
            try await browser.wait("return document.querySelector('#conversation') !== null && document.querySelector('#conversation').dataset.thread === '\(plan.id)'", timeout: 60)

            // An open page (its event stream) does not hold up the daemon's shutdown.
            let stopped = try await world.stopDaemon()
            #expect(stopped.status == 0)
            #expect(stopped.seconds < 5, "SIGTERM took \(stopped.seconds) s with a page open")
        }
    }

    @Test("Without JavaScript the inbox and a conversation still read, and an action still works")
    func withoutJavaScript() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 2)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            let base = try await browser.url.components(separatedBy: "/mail")[0]
            let href = try #require(try await browser.js("return Array.from(document.querySelectorAll('#threads .row-link')).find(a => a.textContent.includes('Quarterly')).href") as? String)
            try await browser.setJavaScript(false)
            try await browser.get("\(base)/mail")
            #expect(try await browser.count("#threads .row") == 6)
            try await browser.get(href)
            #expect(try await browser.count("#conversation .message") == 3)
            let expanded = try await browser.count("#conversation details.msg[open]")
            #expect(expanded == 1, "\(expanded) messages open")
            // A plain form post: Star, then back on the same conversation, starred.
            try await browser.click("#conv-form button[value=star]")
            try await world.eventually("the page back after the form post") { (try? await browser.count("#conv-form button[value=unstar]")) == 1 }
            try await world.eventually("the star on the server") {
                try await world.otherClient.messages(in: "INBOX").contains { $0.subject.contains("Quarterly plan") && $0.flags.contains("\\Flagged") }
            }
            try await world.screenshots(browser, name: "no-javascript")
            try await browser.setJavaScript(true)
        }
    }

    @Test("vaultmail open without a daemon says how to start one; a taken port stops the daemon with a clear error")
    func badStarts() async throws {
        try await EndToEndWorld.with { world in
            let open = try await world.vaultmail(["open", "--no-browser"])
            #expect(open.status == 1)
            #expect(open.text.contains("the web app is not running") && open.text.contains("vaultmail daemon"), "\(open.text)")

            let taken = try await RecordingHTTPServer.start()
            defer { taken.stop() }
            let daemon = try await world.vaultmail(["daemon", "--web-port", "\(taken.port)"])
            #expect(daemon.status == 1)
            #expect(daemon.text.contains("127.0.0.1:\(taken.port): the port is in use"), "\(daemon.text)")
            #expect(daemon.text.contains("--web-port") && daemon.text.contains("--no-web"))
        }
    }
}
