import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 33's Snooze in a real browser against the running daemon and Dovecot: `b` opens the
/// conversation's Snooze menu with the presets' times in the reader's language; a preset and the
/// picker snooze on the server (the Snoozed mailbox and the keyword) after the undo window; the
/// Snoozed box in the sidebar shows each row's wake time and offers Unsnooze; the tool agrees.
@Suite("Web app in a browser: Snooze (issue 33)", .serialized)
struct WebAppSnoozeTests {
    @Test("Snooze from the conversation (b, a preset) and from the list (the picker), the Snoozed box with wake times, Unsnooze; axe clean light, dark and narrow")
    func snoozeInTheBrowser() async throws {
        try await EndToEndWorld.with { world in
            for subject in ["Snooze from the web", "Snooze from the list", "Stays in the inbox"] {
                try world.deliver(EndToEndWorld.message(subject))
            }
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            // b opens the conversation's menu: the presets with their times, the picker.
            try await world.openRow(browser, containing: "Snooze from the web")
            try await browser.js("document.activeElement.blur()")
            try await browser.keys(["b"])
            try await browser.wait("return document.querySelector('#conversation details.snooze-menu[open]') !== null")
            #expect(try await browser.string("return document.activeElement.className").contains("snooze-choice"))
            let choices = try await browser.js("""
                return Array.from(document.querySelectorAll('#conversation .snooze-choice')).map(b =>
                    [b.value, b.querySelector('.snooze-name').textContent, (b.querySelector('.snooze-time') || {}).textContent || ''])
                """) as? [[String]] ?? []
            let values = choices.map { $0[0] }
            #expect(values.suffix(3) == ["snooze:tomorrow", "snooze:next-week", "snooze:someday"], "\(choices)")
            let tomorrow = try #require(choices.first { $0[0] == "snooze:tomorrow" })
            #expect(tomorrow[1] == "Tomorrow" && !tomorrow[2].isEmpty, "\(tomorrow)")
            #expect(try await browser.count("#conversation .snooze-pick input[type=datetime-local]") == 1)
            try await world.expectAccessible(browser, page: "the Snooze menu")
            try await browser.js("document.querySelector('#conversation details.snooze-menu').open = true")
            try await world.screenshots(browser, name: "snooze-menu")
            let menuFits = try await browser.js("""
                const r = document.querySelector('#conversation .snooze-panel').getBoundingClientRect();
                return r.left >= 0 && r.right <= window.innerWidth + 1 && r.height > 100
                """) as? Bool
            #expect(menuFits == true, "the open menu lies within the window")

            // A preset: the toast names the time and offers Undo; after the undo window the server has it.
            try await browser.js("document.querySelector('#conversation button[value=\"snooze:tomorrow\"]').click()")
            try await browser.wait("return document.querySelector('#toasts').textContent.includes('Snoozed “Snooze from the web” until')")
            #expect(try await browser.js("return Array.from(document.querySelectorAll('#toasts button')).some(b => b.textContent === 'Undo')") as? Bool == true)
            try await world.eventually("the server's Snoozed mailbox holding it", timeout: .seconds(30)) {
                (try? await world.otherClient.messages(in: "Snoozed"))?.contains { $0.subject == "Snooze from the web" } == true
            }
            let onServer = try #require(try await world.otherClient.messages(in: "Snoozed").first { $0.subject == "Snooze from the web" })
            #expect(onServer.flags.contains { $0.hasPrefix("$SnoozedUntil-") }, "\(onServer.flags)")

            // The list's menu with the picker: two days from now at 09:30.
            try await browser.js("location.href = '/mail'")
            try await browser.wait("return document.querySelector('#threads .row') !== null")
            try await browser.js("""
                const row = Array.from(document.querySelectorAll('#threads .row')).find(r => r.textContent.includes('Snooze from the list'));
                row.querySelector('.select').click();
                document.querySelector('#list-form details.snooze-menu').open = true;
                const d = new Date(Date.now() + 2 * 86400000); d.setHours(9, 30, 0, 0);
                const pad = n => String(n).padStart(2, '0');
                document.querySelector('#snooze-until-list').value = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:30`;
                document.querySelector('#list-form button[value="snooze:pick"]').click();
                """)
            try await browser.wait("return document.querySelector('#toasts').textContent.includes('Snoozed “Snooze from the list” until')")
            try await world.eventually("the picked time on the server", timeout: .seconds(30)) {
                (try? await world.otherClient.messages(in: "Snoozed"))?.count == 2
            }
            let picked = try #require(try await world.otherClient.messages(in: "Snoozed").first { $0.subject == "Snooze from the list" })
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            let expected = calendar.date(bySettingHour: 9, minute: 30, second: 0, of: Date().addingTimeInterval(2 * 86400))!
            #expect(picked.flags.contains(SnoozeTime.until(expected).keyword), "\(picked.flags)")

            // The Snoozed box: in the sidebar, each row with its wake time, Unsnooze in the toolbar.
            try await browser.js("location.reload()")
            try await browser.wait("return Array.from(document.querySelectorAll('#sidebar a')).some(a => a.textContent.includes('Snoozed'))")
            try await browser.js("Array.from(document.querySelectorAll('#sidebar a')).find(a => a.textContent.includes('Snoozed')).click()")
            try await browser.wait("return document.querySelectorAll('#threads .row').length === 2")
            let wakes = try await browser.js("return Array.from(document.querySelectorAll('#threads .row .wake')).map(w => w.textContent)") as? [String] ?? []
            #expect(wakes.count == 2 && wakes.allSatisfy { $0.hasPrefix("Until ") }, "\(wakes)")
            #expect(try await browser.string("return document.querySelector('#threads .row .row-link').getAttribute('aria-label')").contains("snoozed: until"))
            #expect(try await browser.count("#list-form button[value=unsnooze]") == 1)
            try await world.expectAccessible(browser, page: "the Snoozed box")
            try await world.screenshots(browser, name: "snoozed-box")

            // Unsnooze from the box: back in the server's inbox after the undo window.
            try await browser.js("""
                Array.from(document.querySelectorAll('#threads .row')).find(r => r.textContent.includes('Snooze from the list')).querySelector('.select').click();
                document.querySelector('#list-form button[value=unsnooze]').click();
                """)
            try await browser.wait("return document.querySelector('#toasts').textContent.includes('Unsnoozed')")
            try await world.eventually("the server's inbox holding it again", timeout: .seconds(30)) {
                (try? await world.otherClient.messages(in: "INBOX"))?.contains { $0.subject == "Snooze from the list" } == true
            }

            // The tool reads the same.
            let listed = try ToolJSON.objects(try await world.vaultmail(["snoozed", "--json"], errors: false).text)
            #expect(listed.map { $0["subject"] as? String } == ["Snooze from the web"])
        }
    }
}
