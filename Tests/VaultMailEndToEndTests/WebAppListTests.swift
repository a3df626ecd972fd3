import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 29's last list affordances in a real browser against Dovecot and the built daemon:
/// "Mark all as read" (the list shown and nothing else, `\Seen` on the server, Undo), the window
/// title counting the list shown and following change events, and the optional date headings.
@Suite("Web app in a browser: Mark all as read, the title's count, date headings (issue 29)", .serialized)
struct WebAppListTests {
    /// Flags of `mailbox`'s messages on the server, by subject.
    static func seen(_ world: EndToEndWorld, in mailbox: String) async throws -> [String: Bool] {
        Dictionary(try await world.otherClient.messages(in: mailbox).map { ($0.subject, $0.flags.contains("\\Seen")) }, uniquingKeysWith: { a, _ in a })
    }

    static func unreadRows(_ browser: BrowserSession) async throws -> Int {
        Int(try await browser.number("return document.querySelectorAll('#threads .row.unread').length"))
    }

    @Test("Issue 29: Mark all as read (Shift+C, or its button) marks exactly the inbox shown read, on Dovecot too; Undo within the window sends nothing; `vaultmail read --folder inbox` does the same; the title counts the folder shown and follows change events")
    func markAllRead() async throws {
        try await EndToEndWorld.with { world in
            for n in 1...6 { try world.deliver(EndToEndWorld.message("Note \(n)", from: "Notes <notes@example.net>")) }
            try world.deliver(EndToEndWorld.message("Old invoice", from: "Billing <billing@example.com>"))
            try world.deliver(EndToEndWorld.message("Seen already", from: "Grace Hopper <grace@example.org>"))
            try await world.otherClient.markRead(subject: "Seen already")
            try await world.otherClient.move(subject: "Old invoice", to: "Archive")
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.wait("return document.querySelectorAll('#threads .row').length === 7 && document.title === 'Inbox (6) — VaultMail'", timeout: 60)
            try await browser.js("window.vaultmailMarker = 1")
            // Shown, labelled, with the list's unread mail only; listed among the shortcuts.
            #expect(try await browser.js("const b = document.querySelector('#mark-all'); return b.offsetParent !== null && b.textContent === 'Mark all as read'") as? Bool == true)
            #expect(try await browser.string("return document.querySelector('#shortcuts').textContent").contains("Shift+CMark all as read (the list shown)"))
            try await world.expectAccessible(browser, page: "the list with Mark all as read")
            try await world.screenshots(browser, name: "mark-all")

            // Every POST the page makes to /actions, as sent.
            try await browser.js("""
                window.vaultmailPosts = [];
                const fetch0 = window.fetch;
                window.fetch = (url, init) => { if (String(url).includes('/actions')) window.vaultmailPosts.push(String(init && init.body)); return fetch0(url, init); };
                """)
            // Shift+C: all six shown read at once, the toast counts them; Undo brings them back and sends nothing.
            try await browser.keys(["C"])
            try await browser.wait("return document.querySelectorAll('#threads .row.unread').length === 0 && document.querySelector('#toasts').textContent.includes('Marked 6 conversations read.')")
            #expect(try await browser.js("return document.querySelector('#mark-all').hidden") as? Bool == true, "offered again during the undo window")
            try await browser.js("Array.from(document.querySelectorAll('#toasts button')).find(b => b.textContent === 'Undo').click()")
            try await browser.wait("return document.querySelectorAll('#threads .row.unread').length === 6 && document.querySelector('#toasts').textContent.includes('Undone.')")
            try await browser.wait("return document.querySelector('#mark-all').hidden === false")

            // The button: after its window, once (the undone one never went), the server's \Seen flags.
            try await browser.click("#mark-all")
            try await browser.wait("return document.querySelector('#toasts').textContent.includes('Marked 6 conversations read.')")
            try await browser.wait("return window.vaultmailPosts.length > 0", timeout: 30)
            let posts = try await browser.js("return window.vaultmailPosts") as? [String] ?? []
            #expect(posts.count == 1 && posts[0].hasPrefix("read=all&box=inbox&upto="), "\(posts)")
            try await world.eventually("the inbox read on Dovecot", timeout: .seconds(40)) {
                try await Self.seen(world, in: "INBOX").values.allSatisfy { $0 }
            }
            #expect(try await Self.seen(world, in: "Archive") == ["Old invoice": false], "another folder's mail was marked read")
            try await browser.wait("return document.title === 'Inbox — VaultMail' && document.querySelector('#mark-all').hidden", timeout: 20)
            #expect(try await Self.unreadRows(browser) == 0)

            // A change event: new mail counts in the title and brings the button back, without a reload.
            try world.deliver(EndToEndWorld.message("Fresh news", from: "Grace Hopper <grace@example.org>"))
            try await browser.wait("return document.title === 'Inbox (1) — VaultMail' && !document.querySelector('#mark-all').hidden", timeout: 30)
            #expect(try await browser.number("return window.vaultmailMarker") == 1, "the page reloaded")

            // The tool, beside the daemon, through the same rule: the inbox's one unread, not the Archive's.
            let tool = try await world.vaultmail(["read", "--folder", "inbox"])
            #expect(tool.status == 0 && tool.text.contains("read: 1 conversation done"), "\(tool.text)")
            try await world.eventually("Fresh news read on Dovecot", timeout: .seconds(40)) {
                try await Self.seen(world, in: "INBOX")["Fresh news"] == true
            }
            #expect(try await Self.seen(world, in: "Archive") == ["Old invoice": false], "the tool marked another folder's mail read")
            try await browser.wait("return document.title === 'Inbox — VaultMail' && document.querySelector('#mark-all').hidden", timeout: 30)

            // Another folder: the title counts it, not the inbox.
            try await browser.js("Array.from(document.querySelectorAll('#sidebar a')).find(a => a.textContent.includes('Archive')).click()")
            try await browser.wait("return new URLSearchParams(location.search).get('box') !== 'inbox' && document.querySelector('#threads .row') !== null", timeout: 30)
            #expect(try await browser.string("return document.title") == "Archive (1) — VaultMail")
        }
    }

    /// The list's headings and rows in page order: `#Heading`, or the heading a row's time
    /// (`data-at`) belongs under by Core's rule, `=Heading`.
    static let listOrder = """
        return Array.from(document.querySelectorAll('#threads > li')).filter(li => !li.classList.contains('more'))
            .map(li => li.classList.contains('date-heading') ? '#' + li.textContent : '@' + li.dataset.at);
        """

    @Test("E-13: each folder keeps the category tab it was left on; back in it from the sidebar, that tab is open; All forgets it")
    func categoryTabPerFolder() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message("Spring sale", from: "Shop <news@shop.example>"))
            try world.deliver(EndToEndWorld.message("Lunch?", from: "Grace Hopper <grace@example.org>"))
            try await world.addAccount()
            try await world.startDaemon()
            let sale = try #require(try await world.inboxThreads().first { $0.subject == "Spring sale" })
            #expect(try await world.vaultmail(["categorize", sale.id, "promotions"]).status == 0)
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.wait("return !!document.querySelector('#list-pane .tabs a[href*=\"cat=promotions\"]')", timeout: 60)
            try await browser.click("#list-pane .tabs a[href*=\"cat=promotions\"]")
            try await browser.wait("return location.search.includes('cat=promotions') && document.querySelectorAll('#threads .row').length === 1")

            // To Sent and back through the sidebar: the Promotions tab again.
            try await browser.js("Array.from(document.querySelectorAll('#sidebar a')).find(a => a.textContent.trim().startsWith('Sent')).click()")
            try await browser.wait("return new URLSearchParams(location.search).get('box') !== 'inbox' && !!document.querySelector('#sidebar')")
            try await browser.js("document.querySelector('#sidebar a[href^=\"/mail?box=inbox\"]').click()")
            try await browser.wait("return new URLSearchParams(location.search).get('box') === 'inbox' && location.search.includes('cat=promotions')")
            #expect(try await browser.string("return document.querySelector('#list-pane .tabs [aria-current]').textContent").contains("Promotions"))
            #expect(try await browser.number("return document.querySelectorAll('#threads .row').length") == 1)

            // All forgets it: back from Sent, the whole inbox.
            try await browser.js("Array.from(document.querySelectorAll('#list-pane .tabs a')).find(a => !a.getAttribute('href').includes('cat=')).click()")
            try await browser.wait("return new URLSearchParams(location.search).get('box') === 'inbox' && !location.search.includes('cat=') && document.querySelectorAll('#threads .row').length === 2")
            try await browser.js("Array.from(document.querySelectorAll('#sidebar a')).find(a => a.textContent.trim().startsWith('Sent')).click()")
            try await browser.wait("return new URLSearchParams(location.search).get('box') !== 'inbox'")
            try await browser.js("document.querySelector('#sidebar a[href^=\"/mail?box=inbox\"]').click()")
            try await browser.wait("return new URLSearchParams(location.search).get('box') === 'inbox' && document.querySelectorAll('#threads .row').length === 2")
            #expect(!(try await browser.string("return location.search")).contains("cat="))
        }
    }

    @Test("Issue 29: date headings, set in Settings, group the list in the browser's locale, each once before its first row; j/k, shift-click ranges and live refresh pass over them; axe clean")
    func dateHeadings() async throws {
        try await EndToEndWorld.with { world in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dated-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let days: [Double] = [0, 0.02, 1, 2, 3, 5, 8, 9, 12, 16, 20, 27, 29]
            for (n, back) in days.enumerated() {
                let message = EndToEndWorld.message("Dated \(n)", from: "Notes <notes@example.net>", written: Date().addingTimeInterval(-back * 86_400 - 120))
                try message.write(to: folder.appendingPathComponent(String(format: "%02d.eml", n)))
            }
            try await world.otherClient.appendDated(directory: folder)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.wait("return document.querySelectorAll('#threads .row').length === \(days.count)", timeout: 60)
            #expect(try await browser.js("return document.querySelector('.date-heading') === null") as? Bool == true, "headings while off (the default)")

            let base = try await browser.url.components(separatedBy: "/mail")[0]
            try await browser.get(base + "/settings#general")
            try await WebAppSettingsTests.flip(browser, "dateHeadings")
            try await browser.get(base + "/mail")
            try await browser.wait("return document.querySelector('.date-heading') !== null && document.querySelectorAll('#threads .row').length === \(days.count)")

            let language = try await browser.string("return navigator.language")
            func expectGrouped(_ what: String) async throws {
                let dates = RelativeDate(now: Date(), timeZone: .current, locale: Locale(identifier: language))
                let order = try await browser.js(Self.listOrder) as? [String] ?? []
                var expected: [String] = []
                for item in order where item.hasPrefix("@") {
                    let heading = "#" + dates.heading(for: Date(timeIntervalSince1970: (Double(item.dropFirst()) ?? 0) / 1000))
                    if expected.last(where: { $0.hasPrefix("#") }) != heading { expected.append(heading) }
                    expected.append(item)
                }
                #expect(order == expected, "\(what): \(order)")
                let headings = order.filter { $0.hasPrefix("#") }
                #expect(Set(headings).count == headings.count && headings.count >= 4, "\(what): \(headings)")
            }
            try await expectGrouped("the page")
            // Headings a screen reader reaches as headings; the rows keep their one sentence each.
            #expect(try await browser.number("return document.querySelectorAll('#threads > li.date-heading > h2').length") >= 4)
            try await world.expectAccessible(browser, page: "the list with date headings")
            try await world.screenshots(browser, name: "date-headings")

            // j/k go row to row over the headings (the first j to the first row); a shift-click
            // range selects the rows between, never a heading.
            for step in 0...4 {
                try await browser.keys(["j"])
                try await browser.wait("return document.querySelector('#threads .row.current') === document.querySelectorAll('#threads .row')[\(step)]")
            }
            try await browser.keys(["k"])
            try await browser.wait("return document.querySelector('#threads .row.current') === document.querySelectorAll('#threads .row')[3]")
            let between = try await browser.js("""
                const rows = Array.from(document.querySelectorAll('#threads .row'));
                rows[1].querySelector('.select').id = 'range-from'; rows[8].querySelector('.select').id = 'range-to';
                return rows.slice(1, 9).map(r => r.dataset.id);
                """) as? [String] ?? []
            try await browser.click("#range-from")
            try await browser.click("#range-to", shift: true)
            let selected = try await browser.js("return Array.from(document.querySelectorAll('#threads .select:checked')).map(c => c.value)") as? [String] ?? []
            #expect(selected == between && selected.count == 8, "\(selected) vs \(between)")
            try await browser.click("#select-all")
            try await browser.click("#select-all")

            // Live refresh: new mail comes in under the first heading, each heading still once.
            try await browser.js("window.vaultmailMarker = 1")
            try world.deliver(EndToEndWorld.message("Dated fresh", from: "Grace Hopper <grace@example.org>"))
            try await browser.wait("return document.querySelectorAll('#threads .row').length === \(days.count + 1)", timeout: 30)
            try await expectGrouped("after new mail")
            #expect(try await browser.number("return window.vaultmailMarker") == 1, "the page reloaded")
        }
    }
}
