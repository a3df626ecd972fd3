import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 33's Send later in a real browser against the running daemon, Dovecot and the SMTP test
/// server: the composer's menu beside Send (presets with their times, a picker), a past time
/// refused in Core's words, a preset scheduling the message (the toast says when, with Cancel; the
/// copy in the server's Drafts carries `$SendAt-…`), the Outbox listing it under Scheduled with its
/// time, Send now / Edit / Cancel, and Cancel taking the time off on the server. Nothing is sent.
@Suite("Web app in a browser: Send later (issue 33)", .serialized)
struct WebAppSendLaterTests {
    @Test("Send later from the composer (a past time refused, a preset), listed under Scheduled with its time, cancelled from the Outbox and from the toast; axe clean light, dark and narrow")
    func sendLaterInTheBrowser() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message("Something to read"))
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            try await Self.write(browser, subject: "Later on")
            // The menu beside Send: the presets with their times, the picker.
            try await browser.js("document.querySelector('#send-later').open = true")
            let choices = try await browser.js("""
                return Array.from(document.querySelectorAll('#send-later .send-later-choice')).map(b =>
                    [b.value, (b.querySelector('.snooze-name') || b).textContent, (b.querySelector('.snooze-time') || {}).textContent || ''])
                """) as? [[String]] ?? []
            #expect(choices.map { $0[0] }.suffix(3) == ["tomorrow", "next-week", "pick"], "\(choices)")
            let tomorrow = try #require(choices.first { $0[0] == "tomorrow" })
            #expect(tomorrow[1] == "Tomorrow morning" && !tomorrow[2].isEmpty, "\(tomorrow)")
            try await world.expectAccessible(browser, page: "the Send later menu")
            try await browser.js("const m = document.querySelector('#send-later'); m.open = true; m.scrollIntoView({ block: 'end' })")
            try await world.screenshots(browser, name: "send-later-menu")
            for (width, height) in [(1280, 800), (420, 860)] {
                try await browser.setSize(width: width, height: height)
                let fits = try await browser.js("""
                    const m = document.querySelector('#send-later'); m.open = true; m.scrollIntoView({ block: 'end' });
                    const r = m.querySelector('.menu-panel').getBoundingClientRect();
                    return r.left >= 0 && r.right <= document.documentElement.clientWidth + 1 && r.top >= 0 && r.height > 100
                    """) as? Bool
                #expect(fits == true, "the open menu lies within the window at \(width) px")
            }
            try await browser.setSize(width: 1280, height: 800)

            // A time already past: refused in Core's words; the draft stays open.
            try await browser.js("""
                const input = document.querySelector('#send-when'); input.removeAttribute('min');
                input.value = '2020-01-02T09:00';
                document.querySelector('#send-later button[value=pick]').click();
                """)
            try await browser.wait("return document.querySelector('#toasts').textContent.includes('has passed')", timeout: 20)
            #expect(try await browser.string("return location.pathname") == "/compose")

            // A preset: back to the mail with the time and Cancel; the server's Drafts has the keyword.
            try await browser.js("document.querySelector('#send-later').open = true; document.querySelector('#send-later button[value=tomorrow]').click()")
            try await browser.wait("return location.pathname === '/mail' && document.querySelector('#toasts').textContent.includes('will be sent')", timeout: 20)
            #expect(try await browser.js("return Array.from(document.querySelectorAll('#toasts button')).some(b => b.textContent === 'Cancel')") as? Bool == true)
            try await world.eventually("the scheduled copy in the server's Drafts", timeout: .seconds(30)) {
                (try? await world.otherClient.messages(in: "Drafts"))?.contains { $0.subject == "Later on" && $0.flags.contains { $0.hasPrefix("$SendAt-") } } == true
            }

            // The Outbox: under Scheduled, with its time, Send now, Edit and Cancel.
            try await browser.js("location.href = '/mail?box=outbox'")
            try await browser.wait("return Array.from(document.querySelectorAll('#threads .outbox-row')).some(r => r.textContent.includes('Later on'))")
            let row = "Array.from(document.querySelectorAll('#threads .outbox-row')).find(r => r.textContent.includes('Later on'))"
            #expect(try await browser.string("return \(row).querySelector('.pill').textContent") == "Scheduled")
            #expect(try await browser.string("return \(row).querySelector('time').textContent").hasPrefix("Sends "))
            let buttons = try await browser.js("return Array.from(\(row).querySelectorAll('button')).map(b => b.textContent)") as? [String] ?? []
            #expect(buttons == ["Send now", "Edit", "Cancel"], "\(buttons)")
            try await world.expectAccessible(browser, page: "the Outbox with a scheduled message")
            try await world.screenshots(browser, name: "outbox-scheduled")

            // Cancel: gone from the Outbox; on the server an ordinary draft (no send time).
            try await browser.js("\(row).querySelector('button[formaction=\"/outbox/unschedule\"]').click()")
            try await browser.wait("return document.querySelector('#toasts').textContent.includes('Cancelled') || document.body.textContent.includes('Cancelled')", timeout: 20)
            try await browser.wait("return !Array.from(document.querySelectorAll('#threads .outbox-row')).some(r => r.textContent.includes('Later on'))")
            try await world.eventually("the copy in Drafts without its send time", timeout: .seconds(30)) {
                (try? await world.otherClient.messages(in: "Drafts"))?.contains { $0.subject == "Later on" && !$0.flags.contains { $0.hasPrefix("$SendAt-") } } == true
            }

            // The toast's Cancel: the message opens again as a draft.
            try await Self.write(browser, subject: "Taken back")
            try await browser.js("document.querySelector('#send-later').open = true; document.querySelector('#send-later button[value=next-week]').click()")
            try await browser.wait("return location.pathname === '/mail' && Array.from(document.querySelectorAll('#toasts button')).some(b => b.textContent === 'Cancel')", timeout: 20)
            try await browser.js("Array.from(document.querySelectorAll('#toasts button')).find(b => b.textContent === 'Cancel').click()")
            try await browser.wait("return location.pathname === '/compose' && document.querySelector('#subject').value === 'Taken back'", timeout: 20)
            let outbox = try await world.vaultmail(["outbox"], errors: false).text
            #expect(!outbox.contains("Taken back") && !outbox.contains("Later on"), "\(outbox)")
            #expect(world.smtp.messages.isEmpty, "nothing was sent")
        }
    }

    /// Opens a new message to Grace with `subject` and a line of text, saved as a draft.
    static func write(_ browser: BrowserSession, subject: String) async throws {
        try await browser.js("location.href = '/compose?kind=new&to=grace%40example.org&subject=' + encodeURIComponent(arguments[0])", [subject])
        try await browser.wait("return location.pathname === '/compose' && document.querySelector('#composer') !== null && document.querySelector('#send-later') !== null")
        try await browser.js("const b = document.querySelector('#body'); b.focus(); b.setSelectionRange(0, 0)")
        try await browser.keys(["See you then."])
        try await browser.wait("return /saved/i.test(document.querySelector('#save-state').textContent)", timeout: 20)
    }
}
