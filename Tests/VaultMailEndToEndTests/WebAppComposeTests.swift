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
            try await world.screenshots(browser, name: "composer-page")
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

    /// The tokens of a recipients field, as the composer shows them.
    static func tokens(_ browser: BrowserSession, _ field: String) async throws -> [String] {
        try await browser.js("return Array.from(document.querySelectorAll('[data-field=\(field)] .token')).map(t => t.dataset.value)") as? [String] ?? []
    }

    /// Presses `key` on the open conversation and waits for the composer it opens in place.
    static func answer(_ browser: BrowserSession, key: String) async throws {
        try await browser.js("document.querySelector('#conv-title').focus()")
        try await browser.keys([key])
        try await waitForComposerInPlace(browser)
    }

    /// Waits for the composer under the open conversation (issue 29: answers are written in place).
    static func waitForComposerInPlace(_ browser: BrowserSession) async throws {
        try await browser.wait("""
            return location.pathname === '/mail' && document.querySelector('#conversation #inline-composer #composer') !== null
                && document.querySelector('#inline-composer #send') !== null
            """, timeout: 30)
        // The composer's script moves the focus into it once it is set up: wait for that too (a
        // loaded machine can answer between the two).
        _ = try? await browser.wait("return document.activeElement !== null && document.activeElement.closest('#inline-composer') !== null", timeout: 15)
        let focused = try await browser.string("return document.activeElement ? document.activeElement.outerHTML.slice(0, 60) : 'none'")
        #expect(try await browser.js("return document.activeElement.closest('#inline-composer') !== null") as? Bool == true,
                "the focus is not in the composer: \(focused)")
    }

    /// Writes `text` at the top of the body and sends with Ctrl+Enter; waits for the mail page
    /// without a composer (the composer page goes back to it; one in place closes).
    static func writeAndSend(_ browser: BrowserSession, _ text: String) async throws {
        try await browser.js("const b = document.querySelector('#body'); b.focus(); b.setSelectionRange(0, 0)")
        try await browser.keys([text])
        try await browser.keys(["CTRL+ENTER"])
        try await browser.wait("return location.pathname === '/mail' && document.querySelector('#composer') === null", timeout: 20)
    }

    @Test("AC-U-08: Reply quotes and threads, Reply all leaves the user out, Forward carries the attachment; all reach SMTP and Sent")
    func replyReplyAllForward() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 2)
            try world.deliver(EndToEndWorld.message(
                "Team sync", headers: ["Cc: Alan Turing <alan@example.org>, Ada <\(EndToEndWorld.address)>, linus@example.net"],
                body: "Shall we meet on Thursday?"))
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            // Reply (r) to the latest message of "Quarterly plan": to Grace, Re:, threaded, quoted.
            try await world.openRow(browser, containing: "Quarterly plan")
            try await Self.answer(browser, key: "r")
            #expect(try await Self.tokens(browser, "to") == ["Grace Hopper <grace@example.org>"])
            #expect(try await browser.string("return document.querySelector('#subject').value") == "Re: Quarterly plan")
            let quoted = try await browser.string("return document.querySelector('#body').value")
            #expect(quoted.contains("Grace Hopper <grace@example.org> wrote:"), "attribution: \(quoted)")
            #expect(quoted.contains("> Final version attached."), "quote: \(quoted)")
            try await Self.writeAndSend(browser, "Thanks, approved.")
            let reply = try PythonEmailParser.parse(try await world.smtp.waitForMessages(count: 1)[0].raw)
            #expect(reply.inReplyTo == "<plan-3@example.org>")
            #expect(reply.references?.split(separator: " ").map(String.init) == ["<plan-1@example.org>", "<plan-2@example.org>", "<plan-3@example.org>"])
            #expect(reply.text?.hasPrefix("Thanks, approved.") == true)
            #expect(reply.text?.contains("> Final version attached.") == true)
            #expect(reply.html == nil, "a plain-text reply carries no HTML the user did not write")
            try await world.eventually("the reply in Sent, threaded", timeout: .seconds(30)) {
                try await world.otherClient.messages(in: "Sent").contains { $0.subject == "Re: Quarterly plan" && $0.inReplyTo == "<plan-3@example.org>" }
            }

            // Forward, from the message that has plan.pdf, carries it (the latest message is now the reply).
            try await world.openRow(browser, containing: "Quarterly plan")
            try await browser.js("""
                const message = Array.from(document.querySelectorAll('#conversation .message')).find(m => m.textContent.includes('plan.pdf'));
                message.querySelector('details').open = true; message.querySelector('[data-compose-message=forward]').click();
                """)
            try await Self.waitForComposerInPlace(browser)
            #expect(try await browser.string("return document.querySelector('#attachment-list').textContent").contains("plan.pdf"))
            try await browser.click("#to")
            try await browser.keys(["alan@example.org", ","])
            try await Self.writeAndSend(browser, "For your files.")
            let forward = try PythonEmailParser.parse(try await world.smtp.waitForMessages(count: 2)[1].raw)
            #expect(forward.subject == "Fwd: Re: Quarterly plan")
            #expect(forward.attachments.map(\.filename) == ["plan.pdf"])
            #expect(forward.text?.contains("---------- Forwarded message ----------") == true)

            // Reply all (a): the sender in To, the others in Cc, never the user.
            try await world.openRow(browser, containing: "Team sync")
            try await Self.answer(browser, key: "a")
            #expect(try await Self.tokens(browser, "to") == ["Grace Hopper <grace@example.org>"])
            #expect(try await Self.tokens(browser, "cc") == ["Alan Turing <alan@example.org>", "linus@example.net"])
            try await Self.writeAndSend(browser, "Thursday works.")
            let all = try await world.smtp.waitForMessages(count: 3)[2]
            #expect(Set(all.recipients) == ["grace@example.org", "alan@example.org", "linus@example.net"])
        }
    }

    /// Opens a new message, addressed and with a subject and body.
    static func newMessage(_ browser: BrowserSession, to: String, subject: String, body: String) async throws {
        try await browser.js("location.href = '/compose'")
        try await browser.wait("return document.querySelector('#composer') !== null && document.activeElement && document.activeElement.id === 'to'")
        try await browser.keys([to, ","])
        try await browser.click("#subject")
        try await browser.keys([subject])
        try await browser.click("#body")
        try await browser.keys([body])
    }

    @Test("AC-U-10/11: a draft survives a reload and is one copy in the server's Drafts; Undo within the window sends nothing")
    func draftsAndUndo() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 1)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            let drafts = { try await world.otherClient.messages(in: "Drafts").filter { $0.subject == "Plans for Friday" } }

            try await Self.newMessage(browser, to: "alan@example.org", subject: "Plans for Friday", body: "First line.")
            try await browser.wait("return /saved/i.test(document.querySelector('#save-state').textContent) && location.search.includes('draft=')", timeout: 20)
            try await world.eventually("the draft in the server's Drafts", timeout: .seconds(30)) { try await drafts().count == 1 }
            let firstCopy = try await drafts()[0].uid
            try await browser.keys(["ENTER", "Second line."])
            try await world.eventually("the new version replacing the old on the server", timeout: .seconds(30)) {
                let copies = try await drafts()
                return copies.count == 1 && copies[0].uid != firstCopy
            }

            // A reload (or a crash of the browser) loses nothing: the URL names the draft.
            try await browser.js("location.reload()")
            try await browser.wait("return document.querySelector('#body') !== null && document.querySelector('#body').value.includes('Second line.')")
            #expect(try await Self.tokens(browser, "to") == ["alan@example.org"])
            #expect(try await browser.string("return document.querySelector('#subject').value") == "Plans for Friday")

            // Send, then Undo inside the window: back in the composer with the draft; nothing sent.
            try await browser.keys(["CTRL+ENTER"])
            try await browser.wait("return location.pathname === '/mail' && document.querySelector('#toasts').textContent.includes('Sending')", timeout: 20)
            try await browser.js("Array.from(document.querySelectorAll('#toasts button')).find(b => b.textContent === 'Undo').click()")
            try await browser.wait("return location.pathname === '/compose' && document.querySelector('#body') !== null && document.querySelector('#body').value.includes('Second line.')", timeout: 20)
            try await world.expectAccessible(browser, page: "a draft in the composer")
            try await browser.click("#discard")
            try await browser.wait("return location.pathname === '/mail'", timeout: 20)
            try await world.eventually("the discarded draft gone from the server", timeout: .seconds(30)) { try await drafts().isEmpty }

            // A message sent after the undone one's window: when it arrives, it is the only one.
            try await Self.newMessage(browser, to: "alan@example.org", subject: "Control", body: "Sent normally.")
            try await browser.keys(["CTRL+ENTER"])
            let received = try await world.smtp.waitForMessages(count: 1)
            let subject = try PythonEmailParser.parse(received[0].raw).subject
            #expect(received.count == 1 && subject == "Control", "the SMTP server got \(received.count) messages: the undone one was sent")
        }
    }

    @Test("AC-F-07: without a connection the message waits in the Outbox and goes when the server is back")
    func offlineSend() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 1)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            world.smtp.stop()

            try await Self.newMessage(browser, to: "alan@example.org", subject: "Written offline", body: "This waits for the server.")
            try await browser.keys(["CTRL+ENTER"])
            try await browser.wait("return location.pathname === '/mail'", timeout: 20)
            try await browser.js("location.href = '/mail?box=outbox'")
            try await browser.wait("return document.querySelector('.outbox-row') !== null && document.querySelector('.outbox-row').textContent.includes('Written offline') && document.querySelector('.outbox-reason') !== null", timeout: 60)
            let reason = try await browser.string("return document.querySelector('.outbox-reason').textContent")
            #expect(reason.contains("127.0.0.1"), "the reason names the server: \(reason)")
            try await world.screenshots(browser, name: "outbox")
            try await world.expectAccessible(browser, page: "the Outbox")

            try await world.smtp.restart()
            let received = try await world.smtp.waitForMessages(count: 1, timeout: .seconds(120))
            #expect(try PythonEmailParser.parse(received[0].raw).subject == "Written offline")
            try await browser.wait("return document.querySelector('.outbox-row') === null", timeout: 30)
        }
    }

    @Test("AC-U-10: a draft written in another client continues here under its Message-ID, replacing its copy in Drafts, and goes")
    func draftFromAnotherClient() async throws {
        try await EndToEndWorld.with { world in
            let folder = world.home.deletingLastPathComponent().appendingPathComponent("\(world.home.lastPathComponent)-drafts")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try EndToEndWorld.message("Started on my phone", from: "Ada <\(EndToEndWorld.address)>", messageId: "<phone-draft@localhost>",
                                      headers: [], body: "Half a thought").write(to: folder.appendingPathComponent("1.eml"))
            try await world.otherClient.append(directory: folder, to: "Drafts")
            let copies = { try await world.otherClient.messages(in: "Drafts").filter { $0.subject == "Started on my phone" } }
            let original = try #require(try await copies().first)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            try await browser.js("Array.from(document.querySelectorAll('#sidebar a')).find(a => a.textContent.includes('Drafts')).click()")
            try await browser.wait("return Array.from(document.querySelectorAll('#threads .subject')).some(s => s.textContent === 'Started on my phone')")
            try await world.openRow(browser, containing: "Started on my phone")
            try await browser.js("document.querySelector('.draft-bar a').click()")
            try await browser.wait("return document.querySelector('#body') !== null && document.querySelector('#body').value.includes('Half a thought')")
            try await browser.click("[data-field=to] input")
            try await browser.keys(["alan@example.org", ","])
            try await browser.js("const b = document.querySelector('#body'); b.focus(); b.setSelectionRange(b.value.length, b.value.length)")
            try await browser.keys([", finished here."])
            try await world.eventually("one copy in Drafts, the new version", timeout: .seconds(30)) {
                let now = try await copies()
                return now.count == 1 && now[0].uid != original.uid
            }
            try await browser.keys(["CTRL+ENTER"])
            let sent = try PythonEmailParser.parse(try await world.smtp.waitForMessages(count: 1)[0].raw)
            #expect(sent.messageId == "<phone-draft@localhost>")
            #expect(sent.text?.contains("Half a thought") == true && sent.text?.contains(", finished here.") == true, "\(sent.text ?? "")")
            try await world.eventually("the draft gone from Drafts", timeout: .seconds(30)) { try await copies().isEmpty }
        }
    }
}
