import Foundation
import Testing
import VaultMailTesting

/// Search through the built tool and in a real browser (issue 14), against real Dovecot.
@Suite("Search end to end (issue 14)", .serialized)
struct SearchEndToEndTests {
    @Test("vaultmail search finds synced mail at once, loses mail deleted on the server at the next sync, and exits 2 on a malformed query")
    func commandLine() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message("Quarterly plan", body: "The crème brûlée budget for the quarter."))
            try world.deliver(EndToEndWorld.message("Lunch", from: "Alan Turing <alan@example.org>", body: "Sandwiches at noon?"))
            try await world.addAccount()
            #expect(try await world.vaultmail(["sync"]).status == 0)

            let found = try ToolJSON.object(try await world.vaultmail(["search", "--json", "creme", "from:example.org"], errors: false).text)
            let rows = try #require(found["results"] as? [[String: Any]])
            #expect(rows.map { $0["subject"] as? String } == ["Quarterly plan"])
            let highlight = try #require(rows.first?["highlight"] as? [[String: Any]])
            #expect(highlight.contains { $0["match"] as? Bool == true && $0["text"] as? String == "crème" })
            #expect(try await world.vaultmail(["search", "--count", "from:alan OR brulee"], errors: false).text == "2\n")

            try await world.otherClient.delete(subject: "Lunch")
            #expect(try await world.vaultmail(["sync"]).status == 0)
            #expect(try await world.vaultmail(["search", "--count", "sandwiches"], errors: false).text == "0\n")

            let malformed = try await world.vaultmail(["search", "budget", "-"])
            #expect(malformed.status == 2, "\(malformed.text)")
            #expect(malformed.text.contains("cannot read the search query at character 8"), "\(malformed.text)")
            #expect(malformed.text.contains("budget -\n         ^"), "\(malformed.text)")
        }
    }

    @Test("In the browser: / then typing shows the results as the thread list, the query in the URL; a bad query shows its error; clearing brings the inbox back; axe-clean")
    func browser() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail()
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.wait("return document.querySelectorAll('#threads .row').length === 25")

            try await browser.js("document.activeElement.blur()")
            try await browser.keys(["/"])
            try await browser.wait("return document.activeElement.id === 'q'")
            // "draft" is in the body of the first two messages (the third is HTML about the final version).
            try await browser.keys(["draft"])
            try await browser.wait("return location.pathname === '/mail/search' && document.querySelectorAll('#threads .row').length === 1")
            #expect(try await browser.string("return location.search") == "?q=draft")
            // The thread's subject is its first message's; all three arrived in the same second.
            #expect(try await browser.string("return document.querySelector('#threads .row .subject').textContent").hasSuffix("Quarterly plan"))
            #expect(try await browser.string("return document.querySelector('#list-title').textContent") == "Results for “draft”")
            #expect(try await browser.count("#threads mark") >= 1, "the matching words are marked")
            try await world.expectAccessible(browser, page: "search results")
            try await world.screenshots(browser, name: "search")

            // A reload (or a shared link) shows the same, the query in the box.
            try await browser.get(try await browser.url)
            try await browser.wait("return document.querySelectorAll('#threads .row').length === 1")
            #expect(try await browser.string("return document.querySelector('#q').value") == "draft")
            try await world.openRow(browser, containing: "Quarterly plan")
            #expect(try await browser.string("return location.pathname + location.search").hasPrefix("/mail/search?q=draft&t="))

            // A query that cannot be read: the parser's words in the page.
            try await browser.js("const q = document.querySelector('#q'); q.value = 'plan (from:grace'; q.dispatchEvent(new Event('input'))")
            try await browser.wait("return document.querySelector('#search-problem') !== null")
            #expect(try await browser.string("return document.querySelector('#search-problem').textContent").contains("is never closed"))
            try await world.expectAccessible(browser, page: "a search that cannot be read")

            // Typing more narrows; an empty box after a search started elsewhere brings that list back.
            try await browser.get(try await browser.url.components(separatedBy: "/mail")[0] + "/mail")
            try await browser.wait("return document.querySelectorAll('#threads .row').length === 25")
            try await browser.js("const q = document.querySelector('#q'); q.value = 'filler note'; q.dispatchEvent(new Event('input'))")
            try await browser.wait("return location.pathname === '/mail/search' && document.querySelector('#list-title').textContent.includes('filler note')")
            try await browser.js("const q = document.querySelector('#q'); q.value = ''; q.dispatchEvent(new Event('input'))")
            try await browser.wait("return location.pathname === '/mail' && document.querySelectorAll('#threads .row').length === 25")
        }
    }
}
