import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 29 in a real browser: errors in people's words with the technical detail (the server,
/// the port, its words) behind a disclosure. "Test connection" against a closed port says
/// "Server unreachable", never a TLS problem; a message the SMTP server refuses is "Not sent"
/// with the server's reason.
@Suite("Web app in a browser: errors in people's words (issue 29)", .serialized)
struct WebAppErrorsTests {
    @Test("Issue 29: Test connection against a closed port says 'Server unreachable' in words, the host:port behind Details, no password anywhere")
    func unreachableServer() async throws {
        try await EndToEndWorld.with { world in
            try await world.startDaemon(accounts: false)
            let browser = try await world.signedInBrowser(landing: "/welcome")
            defer { browser.stop() }
            try await browser.js("location.href = '/welcome/servers?email=' + encodeURIComponent(arguments[0])", [EndToEndWorld.address])
            try await browser.wait("return location.pathname === '/welcome/servers' && document.querySelector('#account-form') !== null")
            let closed = try BadInputEndToEndTests.closedPort()
            let password = "horse-battery-\(UUID().uuidString.prefix(8))"
            try await WebAppAccountsTests.fill(browser, [
                "name": "work", "username": EndToEndWorld.user, "imapHost": "127.0.0.1", "imapPort": "\(closed)",
                "smtpHost": "127.0.0.1", "smtpPort": "\(world.smtp.tlsPort)", "caFile": world.dovecot.caFile, "password": password,
            ])
            _ = try await WebAppAccountsTests.test(browser, expecting: "Server unreachable")
            let step = try await browser.string(
                "return Array.from(document.querySelector('#check-result li.bad').childNodes).filter(n => n.nodeType === 3).map(n => n.textContent).join('')")
            #expect(step == "Connect to the incoming mail server (IMAP)", "the step, named without host:port: \(step)")
            let words = try await browser.string("return document.querySelector('#check-result li.bad .detail').textContent")
            #expect(words == "Server unreachable: can't reach 127.0.0.1. Check the server's name and port, and your connection.", "\(words)")
            #expect(!words.contains("TLS") && !words.contains(":\(closed)"))
            let disclosure = "document.querySelector('#check-result li.bad details.problem-detail')"
            #expect(try await browser.js("return \(disclosure).open") as? Bool == false, "the detail is behind a disclosure")
            #expect(try await browser.string("return \(disclosure).querySelector('summary').textContent") == "Details")
            try await browser.js("\(disclosure).querySelector('summary').click()")
            try await browser.wait("return \(disclosure).open")
            let detail = try await browser.string("return \(disclosure).querySelector('pre').textContent")
            #expect(detail.contains("127.0.0.1:\(closed)"), "the detail names the server and the port: \(detail)")
            let report = try await browser.string("return document.querySelector('#check-result').innerHTML")
            #expect(!report.contains(password), "the password is in neither the words nor the detail")
            try await world.screenshots(browser, name: "errors-test-connection")
            try await world.expectAccessible(browser, page: "a failed connection test with its details open")
        }
    }

    @Test("Issue 29: a message the SMTP server refuses is 'Not sent' with its reason in words in the Outbox, the server and port behind Details")
    func refusedSend() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 1)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await world.smtp.rejectRecipients(["nobody@example.org"])

            try await WebAppComposeTests.newMessage(browser, to: "nobody@example.org", subject: "To nobody", body: "This will bounce.")
            try await browser.keys(["CTRL+ENTER"])
            try await browser.wait("return location.pathname === '/mail'", timeout: 20)
            try await browser.js("location.href = '/mail?box=outbox'")
            // The list follows the store's change events: the refusal shows once the undo window is over.
            try await browser.wait("const r = document.querySelector('.outbox-row .outbox-reason'); return r !== null && r.textContent.startsWith('Not sent: ')",
                                   timeout: 60)
            let reason = try await browser.string("return document.querySelector('.outbox-row .outbox-reason').textContent")
            #expect(reason == "Not sent: 127.0.0.1 refused: “<nobody@example.org>: 550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown” "
                + "VaultMail won't try again by itself: it stays in the Outbox, not sent. Change it (Cancel makes it a draft again), "
                + "or press Send now once that is fixed.", "the server's own words, quoted, and that nothing retries it (issue 34): \(reason)")
            #expect(!reason.contains("127.0.0.1:") && !reason.contains("SMTPError") && !reason.contains("rejected(") , "\(reason)")
            let disclosure = "document.querySelector('.outbox-row details.problem-detail')"
            #expect(try await browser.js("return \(disclosure).open") as? Bool == false, "the detail is behind a disclosure")
            let detail = try await browser.string("return \(disclosure).querySelector('pre').textContent")
            #expect(detail.contains("127.0.0.1:\(world.smtp.tlsPort)"), "the detail names the server and port: \(detail)")
            #expect(!detail.contains(EndToEndWorld.password))
            #expect(world.smtp.messages.isEmpty)
            try await browser.js("\(disclosure).open = true")
            try await world.screenshots(browser, name: "errors-outbox-not-sent")
            try await world.expectAccessible(browser, page: "the Outbox with a refused message")
        }
    }
}
