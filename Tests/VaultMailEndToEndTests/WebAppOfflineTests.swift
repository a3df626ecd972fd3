import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 29 in a real browser: triage with the mail server gone is done here at once, said in
/// plain words, counted as waiting, and replayed on the server when it answers again; across a
/// daemon restart too. Errors say what happened without host:port, the details on demand.
@Suite("Web app in a browser: offline triage and errors in people's words (issue 29)", .serialized)
struct WebAppOfflineTests {
    static let rowSubjects = "Array.from(document.querySelectorAll('#threads .row .subject')).map(s => s.textContent)"

    /// The row whose subject is `subject` (a thread may be named by a reply: "Re: …").
    static let row = "Array.from(document.querySelectorAll('#threads .row')).find(r => r.querySelector('.subject').textContent.replace(/^Re: /, '') === arguments[0])"

    /// Selects the row whose subject is `subject` and presses the list toolbar's `action`.
    static func act(_ browser: BrowserSession, _ action: String, on subject: String) async throws {
        try await browser.js("document.querySelectorAll('#threads .select').forEach(c => { if (c.checked) c.click(); })")
        try await browser.wait("return \(row.replacingOccurrences(of: "arguments[0]", with: literal(subject))) !== undefined")
        try await browser.js("\(row).querySelector('.select').click()", [subject])
        try await browser.click("#list-form button[value=\(action)]")
    }

    /// Selects the row of `subject` alone and picks `folder` in the list's Move menu.
    static func move(_ browser: BrowserSession, _ subject: String, to folder: String) async throws {
        try await browser.js("document.querySelectorAll('#threads .select').forEach(c => { if (c.checked) c.click(); })")
        try await browser.wait("return \(row.replacingOccurrences(of: "arguments[0]", with: literal(subject))) !== undefined")
        try await browser.js("\(row).querySelector('.select').click()", [subject])
        try await browser.js("""
            document.querySelector('#list-form .move-menu').open = true;
            Array.from(document.querySelectorAll('#list-form .move-menu .menu-item')).find(b => b.textContent === arguments[0]).click();
            """, [folder])
    }

    static func toastSays(_ browser: BrowserSession, _ text: String) async throws {
        try await browser.wait("return document.querySelector('#toasts').textContent.includes(\(Self.literal(text)))", timeout: 30)
    }

    static func literal(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    @Test("Issue 29: with the server gone, archive, read and star (in the page and with the tool) are done here at once, said in plain words and counted as waiting; they reach the server when it answers, and after a daemon restart")
    func offlineTriage() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 4)
            try await world.addAccount()
            try await world.startDaemon(["--reconnect-max-seconds", "2"])
            var browser = try await world.signedInBrowser()
            defer { browser.stop() }
            let inbox = { try await world.otherClient.messages(in: "INBOX") }

            // The server goes away: the top bar says so in a person's words, details on demand.
            world.dovecot.kill()
            try await browser.wait("return !document.querySelector('#connection').hidden", timeout: 60)
            try await browser.wait("return document.querySelector('#connection .connection-detail').textContent.includes(\"Server unreachable: can't reach 127.0.0.1\")", timeout: 60)
            let words = try await browser.string("return document.querySelector('#connection .connection-detail').textContent")
            #expect(words.contains("VaultMail will retry") && !words.contains("127.0.0.1:"), "\(words)")
            #expect(!words.contains("TLS"), "a refused connection is no TLS problem: \(words)")
            let technical = try await browser.string("return document.querySelector('#connection .connection-tech pre').textContent")
            #expect(technical.contains("127.0.0.1:"), "the technical detail keeps host and port: \(technical)")

            // Archive: gone from the list at once; after the undo window the toast names it.
            try await Self.act(browser, "archive", on: "Quarterly plan")
            try await browser.wait("return !\(Self.rowSubjects).some(s => s.endsWith('Quarterly plan'))")
            try await Self.toastSays(browser, "Quarterly plan” — will be done on the server when it’s reachable.")
            #expect(try await browser.string("return document.querySelector('#toasts').textContent").contains("Archived “"))
            try await browser.wait("return (document.querySelector('#pending-changes .pending-count') || {}).textContent === '1 change waiting for the server'")

            // The server answers again: the archive reaches it, the count goes.
            try await world.dovecot.restart()
            try await world.eventually("the archive done on the server", timeout: .seconds(90)) {
                !(try await inbox()).contains { $0.subject.hasSuffix("Quarterly plan") }
            }
            #expect(try await world.otherClient.messages(in: "Archive").filter { $0.subject.hasSuffix("Quarterly plan") }.count == 3,
                    "the whole conversation archived")
            try await browser.wait("return document.querySelector('#pending-changes') === null", timeout: 30)
            try await browser.wait("return document.querySelector('#connection').hidden", timeout: 90)

            // Gone again: read and star wait, survive a daemon restart, and reach the server after it.
            world.dovecot.kill()
            try await browser.wait("return !document.querySelector('#connection').hidden", timeout: 60)
            try await Self.act(browser, "read", on: "Note 1")
            try await Self.toastSays(browser, "Marked “Note 1” read — will be done on the server when it’s reachable.")
            try await browser.js("Array.from(document.querySelectorAll('#threads .row')).find(r => r.querySelector('.subject').textContent === 'Note 2').querySelector('.star').click()")
            try await Self.toastSays(browser, "Starred “Note 2” — will be done on the server when it’s reachable.")
            try await browser.wait("return (document.querySelector('#pending-changes .pending-count') || {}).textContent === '2 changes waiting for the server'")
            // The tool beside it, through the same Core rule, says the same.
            let note3 = try #require(try await world.inboxThreads().first { $0.subject == "Note 3" })
            let tool = try await world.vaultmail(["archive", note3.id])
            #expect(tool.status == 0, "\(tool.text)")
            #expect(tool.text.contains("Archived “Note 3” — will be done on the server when it’s reachable."), "\(tool.text)")
            #expect(tool.text.contains("3 changes waiting for the server"), "\(tool.text)")
            try await browser.wait("return (document.querySelector('#pending-changes .pending-count') || {}).textContent === '3 changes waiting for the server'", timeout: 30)
            try await browser.wait("return !\(Self.rowSubjects).includes('Note 3')")
            // Done here at once: the row reads as read and starred.
            try await browser.wait("return Array.from(document.querySelectorAll('#threads .row')).some(r => r.querySelector('.subject').textContent === 'Note 2' && r.querySelector('.star').getAttribute('aria-pressed') === 'true')")
            try await browser.js("document.querySelector('#pending-changes details').open = true; document.querySelector('#connection details').open = true")
            try await world.expectAccessible(browser, page: "offline-queued")
            try await world.screenshots(browser, name: "offline-queued")

            browser.stop()
            _ = try await world.stopDaemon()
            try await world.dovecot.restart()
            try await world.startDaemon(["--reconnect-max-seconds", "2"])
            try await world.eventually("read, star and the tool's archive done on the server after the restart", timeout: .seconds(90)) {
                let messages = try await inbox()
                return messages.contains { $0.subject == "Note 1" && $0.flags.contains("\\Seen") }
                    && messages.contains { $0.subject == "Note 2" && $0.flags.contains("\\Flagged") }
                    && !messages.contains { $0.subject == "Note 3" }
            }
            #expect(try await world.otherClient.messages(in: "Archive").map(\.subject).contains("Note 3"))
            #expect(try await inbox().filter { $0.flags.contains("\\Flagged") }.map(\.subject) == ["Note 2"], "starred once, only Note 2")
            browser = try await world.signedInBrowser()
            try await browser.wait("return document.querySelector('#list-pane') !== null && document.querySelector('#pending-changes') === null")
        }
    }

    @Test("Issue 29: a move kept offline to a folder removed on the server meanwhile is said in plain words when the server is back, and the conversation stays in the inbox")
    func moveToVanishedFolder() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 2)
            try world.dovecot.doveadm(["mailbox", "create", "-u", EndToEndWorld.user, "Projects"])
            try await world.addAccount()
            try await world.startDaemon(["--reconnect-max-seconds", "2"])
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            world.dovecot.kill()
            try await browser.wait("return !document.querySelector('#connection').hidden", timeout: 60)
            try await Self.move(browser, "Note 1", to: "Projects")
            try await browser.wait("return !\(Self.rowSubjects).includes('Note 1')")
            try await Self.toastSays(browser, "Moved “Note 1” to Projects — will be done on the server when it’s reachable.")

            // While the server is down its folder goes (the admin removes it from the Maildir;
            // Dovecot's folder list index is a cache it rebuilds from the directories).
            let maildir = world.dovecot.directory.appendingPathComponent("home/\(EndToEndWorld.user)/Maildir")
            try FileManager.default.removeItem(at: maildir.appendingPathComponent(".Projects"))
            for name in try FileManager.default.contentsOfDirectory(atPath: maildir.path) where name.hasPrefix("dovecot.list.index") {
                try FileManager.default.removeItem(at: maildir.appendingPathComponent(name))
            }
            try await world.dovecot.restart()
            try await Self.toastSays(browser, "Couldn’t move “Note 1” to Projects: that folder no longer exists on the server. It stays in Inbox.")
            try await browser.wait("return \(Self.rowSubjects).includes('Note 1')", timeout: 30)
            try await browser.wait("return document.querySelector('#pending-changes') === null", timeout: 30)
            #expect(try await world.otherClient.messages(in: "INBOX").contains { $0.subject == "Note 1" })
        }
    }

    @Test("Issue 29: an action that fails is said in people's words, the technical detail behind a disclosure")
    func errorInPlainWords() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 2)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            // A folder removed since the page was drawn: the move fails, in words without its id.
            try await browser.js("""
                const b = document.createElement('button'); b.className = 'menu-item'; b.name = 'one'; b.value = 'move:folder-gone-7f3a';
                b.textContent = 'Old projects'; document.querySelector('#list-form .move-menu .menu-panel').append(b);
                """)
            try await Self.move(browser, "Note 1", to: "Old projects")
            try await browser.wait("return document.querySelector('#toasts .toast.error') !== null", timeout: 30)
            let words = try await browser.string("return document.querySelector('#toasts .toast.error > span').textContent")
            #expect(words == "1 conversation couldn't be moved: That folder is no longer here: it may have been removed on the server.", "\(words)")
            #expect(try await browser.js("return document.querySelector('#toasts .toast.error details').open") as? Bool == false, "the details are behind a disclosure")
            let detail = try await browser.string("return document.querySelector('#toasts .toast.error details pre').textContent")
            #expect(detail.contains("folder-gone-7f3a"), "the technical detail keeps the id: \(detail)")
            // The row is back where it was.
            try await browser.wait("return \(Self.rowSubjects).includes('Note 1')")
        }
    }
}
