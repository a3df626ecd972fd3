import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 29 in a real browser against Dovecot, the SMTP test server and the built daemon:
/// keyboard triage that keeps its place, toasts that name what they acted on, counts that
/// follow one change event, drafts shown as drafts, and answering in place.
@Suite("Web app in a browser: triage in place, counts, drafts, answering in place (issue 29)", .serialized)
struct WebAppInPlaceTests {
    /// The ids of the list's rows, top (newest) first.
    static func rowIds(_ browser: BrowserSession) async throws -> [String] {
        try await browser.js("return Array.from(document.querySelectorAll('#threads .row')).map(r => r.dataset.id)") as? [String] ?? []
    }

    /// The subject of the row `id`.
    static func subject(_ browser: BrowserSession, _ id: String) async throws -> String {
        try await browser.js("return document.querySelector('#threads .row[data-id=\"' + arguments[0] + '\"] .subject').textContent", [id]) as? String ?? ""
    }

    /// Waits until `id` is the conversation open, its row the current one, and the keyboard's
    /// focus on the conversation (its title) — never back at the top of the page.
    static func expectOpen(_ browser: BrowserSession, _ id: String, _ what: String) async throws {
        try await browser.wait("""
            const c = document.querySelector('#conversation'), cur = document.querySelector('#threads .row.current');
            return c !== null && c.dataset.thread === '\(id)' && cur !== null && cur.dataset.id === '\(id)'
                && document.activeElement === document.querySelector('#conv-title')
            """, timeout: 20)
        #expect(try await browser.js("return document.querySelector('#threads .row.open').dataset.id") as? String == id, "\(what): the open row")
    }

    /// Picks `choice` for "After archiving, deleting or moving a conversation, open" in Settings
    /// (saved at once by the settings page), then goes back to the inbox.
    static func afterTriage(_ browser: BrowserSession, _ choice: String, base: String) async throws {
        try await browser.get(base + "/settings#general")
        try await browser.click("#afterTriage-\(choice)")
        try await browser.wait("return /saved/i.test(document.body.textContent)", timeout: 20)
        try await browser.get(base + "/mail")
        try await browser.wait("return document.body.dataset.afterTriage === '\(choice)' && document.querySelectorAll('#threads .row').length > 3")
    }

    /// The inbox count of the window title, the sidebar and the list's "All" tab (nil where a
    /// place shows none).
    static func counts(_ browser: BrowserSession) async throws -> [String: Int] {
        let found = try await browser.js("""
            const n = t => { const m = /(\\d+)/.exec(t || ''); return m ? Number(m[1]) : 0; };
            const title = /^Inbox \\((\\d+)\\)/.exec(document.title);
            const inbox = Array.from(document.querySelectorAll('#sidebar a')).find(a => a.querySelector('.box-name') !== null && a.querySelector('.box-name').textContent === 'Inbox');
            const tab = document.querySelector('#list-pane .tabs a');
            const out = { title: title ? Number(title[1]) : 0, sidebar: n(inbox.querySelector('.count') && inbox.querySelector('.count').textContent) };
            if (tab) out.tab = n(tab.querySelector('.count') && tab.querySelector('.count').textContent);
            return out;
            """) as? [String: Any] ?? [:]
        return found.compactMapValues { ($0 as? NSNumber)?.intValue }
    }

    @Test("Issue 29: after e, # and Move the next conversation opens with the focus on it (older, newer, or the list as set); j/k open the next while reading; toasts name the conversation; title, sidebar and tabs agree after each change event")
    func triageKeepsItsPlace() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 10)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            let base = try await browser.url.components(separatedBy: "/mail")[0]
            try await browser.js("window.vaultmailMarker = 1")
            var ids = try await Self.rowIds(browser)
            try #require(ids.count > 8)
            #expect(try await browser.string("return document.body.dataset.afterTriage") == "older", "the default")

            // Open the second row; e archives it, the older one (below) opens, the focus on it.
            try await browser.click("#threads .row:nth-child(2) .row-link")
            try await Self.expectOpen(browser, ids[1], "opened by a click")
            let archived = try await Self.subject(browser, ids[1])
            try await browser.keys(["e"])
            try await Self.expectOpen(browser, ids[2], "after e")
            #expect(try await browser.string("return document.querySelector('#toasts').textContent").contains("Archived “\(archived)”."))
            #expect(try await browser.js("return document.querySelector('#threads .row[data-id=\"\(ids[1])\"]') === null") as? Bool == true)

            // j and k while reading open the next and the previous conversation; e acts on the one open.
            try await browser.keys(["j"])
            try await Self.expectOpen(browser, ids[3], "after j")
            try await browser.keys(["k"])
            try await Self.expectOpen(browser, ids[2], "after k")
            try await browser.keys(["j"])
            try await Self.expectOpen(browser, ids[3], "after j again")
            let deleted = try await Self.subject(browser, ids[3])
            try await browser.keys(["#"])
            try await Self.expectOpen(browser, ids[4], "after #")
            #expect(try await browser.string("return document.querySelector('#toasts').textContent").contains("Deleted “\(deleted)”."))
            #expect(try await browser.js("return document.querySelector('#threads .row[data-id=\"\(ids[2])\"]') !== null") as? Bool == true,
                    "# acted on another conversation than the one open")

            // Move from the conversation's toolbar: the same.
            let moved = try await Self.subject(browser, ids[4])
            try await browser.js("""
                document.querySelector('#conv-form .move-menu').open = true;
                Array.from(document.querySelectorAll('#conv-form .move-menu .menu-item')).find(b => b.textContent.includes('Archive')).click();
                """)
            try await Self.expectOpen(browser, ids[5], "after Move")
            #expect(try await browser.string("return document.querySelector('#toasts').textContent").contains("Moved “\(moved)”."))
            #expect(try await browser.number("return window.vaultmailMarker") == 1, "the page reloaded")

            // The archive, delete and move reach the server after their undo window; every
            // count on the page follows the same change events, without a reload.
            try await world.eventually("the three gone from the inbox on the server", timeout: .seconds(40)) {
                let subjects = try await world.otherClient.messages(in: "INBOX").map(\.subject)
                return ![archived, deleted, moved].contains { subjects.contains($0) }
            }
            // Settled: the open conversation read (opening marks it), every count alike.
            var before: [String: Int] = [:]
            try await world.eventually("the counts settled and alike", timeout: .seconds(20)) {
                before = try await Self.counts(browser)
                let read = try await browser.js("return !document.querySelector('#threads .row.open').classList.contains('unread')") as? Bool == true
                return read && before["title"] == before["sidebar"] && (before["tab"] == nil || before["tab"] == before["title"])
            }
            try await browser.keys(["U"])  // Shift+U: the open conversation unread again — one more everywhere at once
            var unread: [String: Int] = [:]
            try await world.eventually("one more unread in the title, the sidebar and the tabs", timeout: .seconds(20)) {
                unread = try await Self.counts(browser)
                return unread["title"] == (before["title"] ?? 0) + 1 && unread["sidebar"] == unread["title"] && (unread["tab"] == nil || unread["tab"] == unread["title"])
            }
            try await browser.keys(["I"])  // Shift+I: read again
            var after: [String: Int] = [:]
            try await world.eventually("the title's count back", timeout: .seconds(20)) {
                after = try await Self.counts(browser)
                return after["title"] == before["title"]
            }
            #expect(after["sidebar"] == after["title"] && (after["tab"] == nil || after["tab"] == after["title"]), "counts disagree: \(after)")
            #expect(try await browser.number("return window.vaultmailMarker") == 1, "the page reloaded")

            // "Newer": after e the conversation above opens.
            try await Self.afterTriage(browser, "newer", base: base)
            ids = try await Self.rowIds(browser)
            try await browser.click("#threads .row:nth-child(3) .row-link")
            try await Self.expectOpen(browser, ids[2], "opened by a click")
            try await browser.keys(["e"])
            try await Self.expectOpen(browser, ids[1], "after e, newer")

            // "The list": after e the list shows, the focus on the row that took its place.
            try await Self.afterTriage(browser, "list", base: base)
            ids = try await Self.rowIds(browser)
            try await browser.click("#threads .row:nth-child(2) .row-link")
            try await Self.expectOpen(browser, ids[1], "opened by a click")
            try await browser.keys(["e"])
            try await browser.wait("""
                const a = document.activeElement, row = a && a.closest && a.closest('#threads .row');
                return document.querySelector('#conversation') === null && row !== null && row.dataset.id === '\(ids[2])' && row.classList.contains('current')
                """, timeout: 20)
            // In the list (nothing open), e archives the current row and the focus goes to the next.
            try await browser.keys(["e"])
            try await browser.wait("""
                const a = document.activeElement, row = a && a.closest && a.closest('#threads .row');
                return row !== null && row.dataset.id === '\(ids[3])' && row.classList.contains('current')
                    && document.querySelector('#threads .row[data-id="\(ids[2])"]') === null
                """, timeout: 20)
            try await world.expectAccessible(browser, page: "the list after triage")
        }
    }

    @Test("Issue 29: a reply is written in place under the conversation with Send in view (1280×800 and 420 px); Escape keeps it as a draft card, not counted; Undo after Send brings it back in place; Forward carries every message's attachments to the SMTP server")
    func answerInPlace() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 2)
            // A fourth message in "Quarterly plan" with its own file: a forward of the
            // conversation carries it and the third message's plan.pdf.
            try world.deliver(Self.minutes())
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            try await world.openRow(browser, containing: "Quarterly plan")
            try await browser.wait("return document.querySelectorAll('#conversation .message').length === 4", timeout: 20)
            let opened = try await browser.string("return location.pathname + location.search")

            // r: the composer opens under the conversation; the address stays the conversation's.
            try await WebAppComposeTests.answer(browser, key: "r")
            #expect(try await browser.string("return location.pathname + location.search") == opened)
            #expect(try await browser.js("return document.querySelector('#conversation .reply-bar').hidden") as? Bool == true)
            for (width, height) in [(1280, 800), (420, 860)] {
                try await browser.setSize(width: width, height: height)
                try await browser.js("document.querySelector('#body').focus()")
                let box = try await browser.js("""
                    const r = document.querySelector('#inline-composer #send').getBoundingClientRect();
                    return [r.top, r.bottom, window.innerHeight, r.width];
                    """) as? [Double] ?? []
                #expect(box.count == 4 && box[0] >= 0 && box[1] <= box[2] && box[3] > 0, "Send out of view at \(width) px: \(box)")
            }
            try await browser.setSize(width: 1280, height: 800)
            try await browser.js("const b = document.querySelector('#body'); b.focus(); b.setSelectionRange(0, 0)")
            try await browser.keys(["Thursday works for me."])
            try await browser.wait("return /saved/i.test(document.querySelector('#inline-composer #save-state').textContent)", timeout: 20)
            try await world.screenshots(browser, name: "composer")
            try await world.expectAccessible(browser, page: "the composer in place")

            // Escape closes it; what was written stays, as a draft card, not as a message.
            try await browser.js("document.querySelector('#body').focus()")
            try await browser.keys(["ESCAPE"])
            try await browser.wait("""
                const card = document.querySelector('#conversation .draft-card');
                return document.querySelector('#inline-composer') === null && card !== null && !card.hidden
                    && card.querySelector('.draft-pill').textContent === 'Draft' && card.textContent.includes('Thursday works for me.')
                """, timeout: 20)
            #expect(try await browser.js("return document.activeElement.closest('.reply-bar') !== null") as? Bool == true, "focus after Escape")
            #expect(try await browser.string("return document.querySelector('#conversation .conv-meta').textContent").hasPrefix("4 messages · 1 draft"))
            #expect(try await browser.number("return document.querySelectorAll('#conversation .message:not(.draft-card)').length") == 4)
            try await browser.wait("""
                const row = Array.from(document.querySelectorAll('#threads .row')).find(r => r.querySelector('.subject').textContent.includes('Quarterly plan'));
                return row.querySelector('.sender').textContent.endsWith('(4)')
                """, timeout: 20)
            try await browser.js("const p = document.querySelector('#reading-pane'); p.scrollTop += document.querySelector('.draft-card').getBoundingClientRect().top - p.getBoundingClientRect().top - 200")
            try await world.screenshots(browser, name: "draft")
            try await world.expectAccessible(browser, page: "a conversation with a draft")

            // Edit opens the same draft in place again; Discard removes it.
            try await browser.click(".draft-card [data-edit-draft]")
            try await WebAppComposeTests.waitForComposerInPlace(browser)
            #expect(try await browser.string("return document.querySelector('#body').value").hasPrefix("Thursday works for me."))
            #expect(try await browser.js("return document.querySelector('#conversation .draft-card').hidden") as? Bool == true, "the draft shown twice")
            try await browser.click("#inline-composer #discard")
            try await browser.wait("return document.querySelector('#inline-composer') === null && document.querySelector('#conversation .draft-card') === null", timeout: 20)
            #expect(try await browser.string("return document.querySelector('#conversation .conv-meta').textContent").hasPrefix("4 messages"))

            // Send in place, then Undo within the window: the draft comes back in place, nothing sent.
            try await WebAppComposeTests.answer(browser, key: "a")
            try await WebAppComposeTests.writeAndSend(browser, "Taken back.")
            try await browser.wait("return document.querySelector('#toasts').textContent.includes('Sending')", timeout: 10)
            try await browser.js("Array.from(document.querySelectorAll('#toasts button')).find(b => b.textContent === 'Undo').click()")
            try await WebAppComposeTests.waitForComposerInPlace(browser)
            #expect(try await browser.string("return document.querySelector('#body').value").hasPrefix("Taken back."))
            try await browser.click("#inline-composer #discard")
            try await browser.wait("return document.querySelector('#inline-composer') === null", timeout: 20)

            // f forwards the conversation: every message's attachments, in its order.
            try await WebAppComposeTests.answer(browser, key: "f")
            let listed = try await browser.string("return document.querySelector('#attachment-list').textContent")
            #expect(listed.contains("plan.pdf") && listed.contains("minutes.txt"), "forwarded files: \(listed)")
            try await browser.click("#to")
            try await browser.keys(["alan@example.org", ","])
            try await WebAppComposeTests.writeAndSend(browser, "Everything so far.")
            let forward = try PythonEmailParser.parse(try await world.smtp.waitForMessages(count: 1, timeout: .seconds(60))[0].raw)
            #expect(world.smtp.messages.count == 1, "the reply taken back was sent")
            #expect(forward.subject == "Fwd: Re: Quarterly plan")
            #expect(forward.attachments.map(\.filename) == ["plan.pdf", "minutes.txt"])
            #expect(forward.text?.hasPrefix("Everything so far.") == true)
        }
    }

    /// The fourth message of "Quarterly plan": plain text with a file of its own.
    static func minutes() -> Data {
        let body = [
            "--mixed", "Content-Type: text/plain; charset=utf-8", "", "The minutes of today's meeting are attached.",
            "--mixed", "Content-Type: text/plain; name=\"minutes.txt\"", "Content-Disposition: attachment; filename=\"minutes.txt\"", "",
            "1. Plan approved.", "--mixed--",
        ].joined(separator: "\r\n")
        return TestMessage(from: "Alan Turing <alan@example.org>", to: "Ada <\(EndToEndWorld.address)>", subject: "Re: Quarterly plan",
                           date: Date().addingTimeInterval(60), timeZone: .current, messageId: "<plan-4@example.org>", inReplyTo: "<plan-3@example.org>",
                           references: ["<plan-1@example.org>", "<plan-2@example.org>", "<plan-3@example.org>"], contentType: "multipart/mixed; boundary=\"mixed\"", body: body).data
    }
}
