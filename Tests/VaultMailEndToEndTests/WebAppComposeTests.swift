import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 13 in a real browser: writing, answering and forwarding mail, drafts and undo send,
/// with the real daemon, Dovecot and the SMTP test server.
@Suite("Web app in a browser: writing mail (issue 13)", .serialized)
struct WebAppComposeTests {
    /// Types into the composer's recipients field `css` and picks the first suggestion.
    static func pickSuggestion(_ browser: BrowserSession, field: String, typing text: String, expecting address: String) async throws {
        try await browser.click("#\(field)")
        try await browser.keys([text])
        try await browser.wait("return Array.from(document.querySelectorAll('#\(field)-suggestions li')).some(li => li.textContent.includes('\(address)'))", timeout: 10)
        try await browser.keys(["ENTER"])
        try await browser.wait("return Array.from(document.querySelectorAll('[data-field=\(field)] .token')).some(t => t.dataset.value.includes('\(address)'))")
    }

    /// Puts a file made in the page into the composer, as the file picker would (or a drop).
    static func attach(_ browser: BrowserSession, name: String, text: String, drop: Bool = false) async throws {
        try await browser.js("""
            const dt = new DataTransfer(); dt.items.add(new File([arguments[1]], arguments[0], { type: 'text/plain' }));
            if (arguments[2]) { document.querySelector('#dropzone').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true })); }
            else { const input = document.querySelector('#attach'); input.files = dt.files; input.dispatchEvent(new Event('change', { bubbles: true })); }
            """, [name, text, drop])
        try await browser.wait("return document.querySelector('#attachment-list').textContent.includes('\(name)')", timeout: 20)
    }

    @Test("AC-U-08/09/11: a new message with a suggested recipient, Markdown and two attachments goes after the undo window, and lands in Sent")
    func newMessage() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 2)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            try await browser.keys(["c"])
            try await browser.wait("return location.pathname === '/compose' && document.querySelector('#composer') !== null")
            #expect(try await browser.js("return document.querySelector('#send').disabled") as? Bool == true, "Send is enabled with no recipient")

            // Suggestions come from the user's own mail: typing "gra" offers Grace Hopper.
            try await Self.pickSuggestion(browser, field: "to", typing: "gra", expecting: "grace@example.org")
            // An address that cannot be sent to is marked as it is typed.
            try await browser.keys(["not-an-address", ","])
            try await browser.wait("return document.querySelector('[data-field=to] .token.invalid') !== null")
            #expect(try await browser.string("return document.querySelector('#to-error').textContent").contains("not an email address"))
            try await browser.js("document.querySelector('[data-field=to] .token.invalid .token-remove').click()")

            try await browser.click("#subject")
            try await browser.keys(["Launch checklist"])
            try await browser.js("document.querySelector('#body').focus()")
            try await browser.keys(["Hello Grace,", "ENTER", "ENTER", "Here is the **final** list:", "ENTER", "ENTER", "- tests", "ENTER", "- docs", "ENTER"])
            try await browser.js("document.querySelector('input[name=markdown]').click()")
            try await Self.attach(browser, name: "checklist.txt", text: "1. tests\n2. docs\n")
            try await Self.attach(browser, name: "dropped.txt", text: "dropped in\n", drop: true)
            try await browser.wait("return /saved/i.test(document.querySelector('#save-state').textContent)", timeout: 20)
            try await world.screenshots(browser, name: "composer")
            try await world.expectAccessible(browser, page: "the composer")

            // Send: back to the list with the undo countdown; nothing reaches the server before it ends.
            try await browser.click("#send")
            try await browser.wait("return location.pathname === '/mail' && document.querySelector('#toasts').textContent.includes('Sending')", timeout: 20)
            let clicked = ContinuousClock.now
            #expect(world.smtp.messages.isEmpty, "sent within the undo window")
            let received = try await world.smtp.waitForMessages(count: 1, timeout: .seconds(60))
            let waited = ContinuousClock.now - clicked
            #expect(waited > .seconds(3), "the message went after \(waited), inside the 5 s undo window")
            let message = try PythonEmailParser.parse(received[0].raw)
            #expect(message.subject == "Launch checklist")
            #expect(message.to.map(\.email) == ["grace@example.org"])
            #expect(message.text?.contains("Here is the **final** list:") == true, "plain text part: \(message.text ?? "")")
            #expect(message.html?.contains("<strong>final</strong>") == true, "HTML part: \(message.html ?? "none")")
            #expect(message.html?.contains("<li>tests</li>") == true)
            #expect(Set(message.attachments.compactMap(\.filename)) == ["checklist.txt", "dropped.txt"])
            try await world.eventually("the message in Sent", timeout: .seconds(30)) {
                try await world.otherClient.messages(in: "Sent").contains { $0.subject == "Launch checklist" }
            }
            try await world.eventually("no copy left in Drafts", timeout: .seconds(30)) {
                !(try await world.otherClient.messages(in: "Drafts").contains { $0.subject == "Launch checklist" })
            }
        }
    }
}
