import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 33's one-click unsubscribe in a real browser against the running daemon, Dovecot,
/// the SMTP test server and a local HTTPS server that records every request: the message's
/// More menu asks first, naming the sender and the method, then the daemon POSTs exactly once;
/// the Subscriptions page lists the sender with its volume and shows "Unsubscribed"; the tool
/// agrees, and its `unsubscribe` sends a mailto: list's request through SMTP.
@Suite("Web app in a browser: one-click unsubscribe and Subscriptions (issue 33)", .serialized)
struct WebAppUnsubscribeTests {
    /// A newsletter after a marketing platform's shape: List-Id, one-click https and a mailto:.
    static func newsletter(_ subject: String, oneClick: URL) -> Data {
        EndToEndWorld.message(subject, from: "Example News <news@news.example.com>", headers: [
            "List-Id: Example News <news.example.com>",
            "List-Unsubscribe: <mailto:leave@news.example.com?subject=unsubscribe>,\r\n <\(oneClick.absoluteString)>",
            "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
            "Precedence: bulk",
        ], body: "This week at Example: three stories.")
    }

    /// A discussion list after Mailman's shape: a web options page (never opened) and a -request address.
    static func listMessage(_ subject: String) -> Data {
        EndToEndWorld.message(subject, from: "Linus <linus@example.net>", headers: [
            "List-Id: Developers <dev.lists.example.net>",
            "List-Unsubscribe: <https://lists.example.net/mailman/options/dev>,\r\n <mailto:dev-request@lists.example.net?subject=unsubscribe>",
            "List-Post: <mailto:dev@lists.example.net>",
        ], body: "A patch for review.")
    }

    @Test("RFC 8058 from the message's More menu: a confirmation naming the sender and the host, one POST; Subscriptions shows the volume and Unsubscribed; the tool agrees and sends a mailto: list's request")
    func unsubscribeFromMessageAndSubscriptions() async throws {
        try await EndToEndWorld.with { world in
            let https = try await RecordingHTTPSServer(certificates: world.dovecot.certificates)
            world.setEnvironment(["VAULTMAIL_UNSUBSCRIBE_CA_FILE": https.caFile])
            let target = https.url("/unsubscribe/3f9a?list=weekly")
            for index in 1...3 { try world.deliver(Self.newsletter("Example weekly \(index)", oneClick: target)) }
            try world.deliver(Self.listMessage("[dev] A patch"))
            try world.deliver(EndToEndWorld.message("Lunch?", body: "A person's mail: no list headers."))
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            // The message's More menu: Unsubscribe asks first, in a dialog naming sender and host.
            try await world.openRow(browser, containing: "Example weekly 3")
            try await browser.js("document.querySelector('#conversation .more-menu summary').click()")
            let item = "#conversation .more-menu a.unsubscribe-item"
            #expect(try await browser.attribute(item, "data-confirm")
                == "Unsubscribe from Example News? Sends a one-click request to 127.0.0.1.")
            try await browser.js("document.querySelector(arguments[0]).click()", [item])
            try await browser.wait("return document.querySelector('dialog.confirm-dialog[open]') !== null")
            #expect(try await browser.string("return document.querySelector('dialog.confirm-dialog').textContent")
                .contains("Unsubscribe from Example News?Sends a one-click request to 127.0.0.1."))
            #expect(try await browser.string("return document.activeElement.textContent") == "Cancel")
            try await world.expectAccessible(browser, page: "the unsubscribe confirmation")
            try await world.screenshots(browser, name: "unsubscribe-confirm")
            // Nothing was sent while asking.
            #expect(https.requests.isEmpty)
            try await browser.js("Array.from(document.querySelectorAll('dialog.confirm-dialog button')).find(b => b.textContent === 'Unsubscribe').click()")
            try await browser.wait("return document.querySelector('#toasts').textContent.includes('Unsubscribed from Example News: 127.0.0.1 accepted the request.')", timeout: 60)
            #expect(try await browser.count("#conversation .more-menu .subs-done") == 1)

            let requests = try await https.waitForRequests(count: 1)
            #expect(requests.count == 1)
            let request = try #require(requests.first)
            #expect(request.method == "POST")
            #expect(request.target == "/unsubscribe/3f9a?list=weekly")
            #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(String(decoding: request.body, as: UTF8.self) == "List-Unsubscribe=One-Click")
            for name in ["cookie", "authorization", "referer", "origin"] { #expect(request.header(name) == nil) }

            // The Subscriptions page: both lists with their volume, the newsletter unsubscribed.
            try await browser.js("location.href = '/subscriptions'")
            try await browser.wait("return document.querySelector('#subs-title') !== null && document.querySelectorAll('.subs-table tbody tr').length === 2")
            let rows = try await browser.js("""
                return Array.from(document.querySelectorAll('.subs-table tbody tr')).map(r =>
                    [r.querySelector('.subs-name').textContent, r.cells[1].textContent, r.cells[2].textContent, r.cells[4].textContent.trim()])
                """) as? [[String]]
            #expect(rows?.first?[0...2] == ["Example News", "3", "3"])
            #expect(rows?.first?[3].hasPrefix("Unsubscribed") == true)
            #expect(rows?.last?[0...3] == ["Developers", "1", "1", "Unsubscribe"])
            #expect(try await browser.attribute(".subs-table thead th:nth-child(3)", "aria-sort") == "descending")
            try await world.expectAccessible(browser, page: "Subscriptions")
            try await world.screenshots(browser, name: "subscriptions")

            // From the keyboard: the list's Unsubscribe opens the question; Escape cancels, nothing goes out.
            try await browser.js("document.querySelector('.subs-button').focus()")
            try await browser.keys(["ENTER"])
            try await browser.wait("return document.querySelector('dialog.confirm-dialog[open]') !== null")
            #expect(try await browser.string("return document.querySelector('dialog.confirm-dialog p').textContent")
                == "Sends an email to dev-request@lists.example.net.")
            try await browser.keys(["ESCAPE"])
            try await browser.wait("return document.querySelector('dialog.confirm-dialog') === null && document.activeElement.classList.contains('subs-button')")
            #expect(world.smtp.messages.isEmpty)

            // The tool reads the same: the newsletter unsubscribed; unsubscribing from the list sends its mail.
            let listed = try ToolJSON.objects(try await world.vaultmail(["subscriptions", "--json"], errors: false).text)
            let news = try #require(listed.first { $0["listId"] as? String == "news.example.com" })
            #expect(news["last90Days"] as? Int == 3)
            #expect(news["unsubscribedAt"] is String)
            let dev = try #require(listed.first { $0["listId"] as? String == "dev.lists.example.net" })
            let devEmail = try #require(dev["latestEmailId"] as? String)
            #expect(try await world.vaultmail(["unsubscribe", devEmail, "--dry-run"]).text
                .contains("Sends an email to dev-request@lists.example.net (from Developers)"))
            let sent = try await world.vaultmail(["unsubscribe", devEmail])
            #expect(sent.status == 0, "\(sent.text)")
            #expect(sent.text.contains("Unsubscribe email sent to dev-request@lists.example.net."))
            let mail = try #require(try await world.smtp.waitForMessages(count: 1).first)
            #expect(mail.recipients == ["dev-request@lists.example.net"])
            #expect(try PythonEmailParser.parse(mail.raw).subject == "unsubscribe")
            #expect(https.requests.count == 1)
            // A person's mail offers nothing.
            let lunch = try #require(try await world.inboxThreads().first { $0.subject == "Lunch?" })
            let refused = try await world.vaultmail(["unsubscribe", lunch.id])
            #expect(refused.status == 1)
            #expect(refused.text.contains("unsubscribing is not offered: the message has no List-Unsubscribe header"))

            // The sender did not stop: a newsletter that arrives afterwards says so, and offers Unsubscribe again.
            try world.deliver(Self.newsletter("Example weekly 4", oneClick: target))
            try await world.eventually("the daemon syncing the fourth newsletter") {
                try await world.inboxThreads().contains { $0.subject == "Example weekly 4" }
            }
            try await browser.js("location.href = '/mail'")
            try await browser.wait("return document.querySelector('#list-pane') !== null")
            try await world.openRow(browser, containing: "Example weekly 4")
            #expect(try await browser.string("return document.querySelector('#conversation .more-menu .subs-done').textContent")
                .hasSuffix("; this message came after it"))
            #expect(try await browser.count("#conversation .more-menu a.unsubscribe-item") == 1)
            #expect(https.requests.count == 1)
        }
    }
}
