import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 12 in a real browser: acting on mail (undo, multi-select), live updates over
/// server-sent events, the in-app banner and the desktop banner rule, hostile HTML.
@Suite("Web app in a browser: triage, live updates, hostile mail (issue 12)", .serialized)
struct WebAppTriageTests {
    @Test("Archive with undo, shift-click multi-select, new mail by SSE without a reload; the inbox on screen gets in-app banners only, the conversation on screen none, another folder on screen desktop ones")
    func triage() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 8)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            let inbox = { try await world.otherClient.messages(in: "INBOX").map(\.subject) }

            // e archives the current conversation; Undo puts it back and nothing reaches the server.
            try await browser.js("document.querySelector('#threads').focus()")
            // j down to the first note (its subject is plain ASCII, as the other client reads it).
            var first = ""
            for _ in 0..<12 where !first.hasPrefix("Note") {
                try await browser.keys(["j"])
                first = try await browser.string("return document.querySelector('#threads .row.current .subject').textContent")
            }
            try #require(first.hasPrefix("Note"), "no note reached with j")
            try await browser.keys(["e"])
            // Undo within the page's 5 s, in the same look that sees the row gone: a loaded
            // machine may take seconds between two commands to the browser.
            let undone = try await browser.call(["cmd": "wait", "timeout": 60, "args": [first], "script": """
                const gone = !Array.from(document.querySelectorAll('#threads .subject')).some(s => s.textContent === arguments[0]);
                const undo = Array.from(document.querySelectorAll('#toasts button')).find(b => b.textContent === 'Undo');
                if (!gone || !undo) return false;
                const text = document.querySelector('#toasts').textContent;
                undo.click();
                return text;
                """]) as? [String: Any]
            #expect((undone?["value"] as? String)?.contains("Archived “\(first)”.") == true, "\(undone ?? [:])")
            try await browser.wait("return Array.from(document.querySelectorAll('#threads .subject')).some(s => s.textContent === '\(first)')")

            // A second archive, let run: once it has reached the server, the undone one never will.
            let second = try await browser.string("return Array.from(document.querySelectorAll('#threads .subject')).map(s => s.textContent).find(s => s !== '\(first)' && s.startsWith('Note'))")
            try await browser.js("Array.from(document.querySelectorAll('#threads .row')).find(r => r.querySelector('.subject').textContent === '\(second)').querySelector('.select').click()")
            try await browser.click("#list-form button[value=archive]")
            try await world.eventually("'\(second)' archived on the server") { !(try await inbox()).contains(second) }
            #expect(try await inbox().contains(first), "the undone archive reached the server")

            // Shift-click selects a range; the toolbar archives all of it.
            try await browser.js("document.querySelectorAll('#threads .select').forEach(c => { if (c.checked) c.click(); })")
            // Three rows in a row that the other client names alike and that are not the plan
            // (rows that arrived in the same second come in no fixed order).
            let onServer = try await inbox().filter { !$0.contains("Quarterly") }
            let start = Int(try await browser.js("""
                const subjects = Array.from(document.querySelectorAll('#threads .row .subject')).map(s => s.textContent);
                return subjects.findIndex((s, i) => [0, 1, 2].every(k => arguments[0].includes(subjects[i + k])));
                """, [onServer]) as? Int ?? -1)
            try #require(start >= 0, "three rows in a row to select")
            try await browser.click("#threads .row:nth-child(\(start + 1)) .select")
            try await browser.click("#threads .row:nth-child(\(start + 3)) .select", shift: true)
            let picked = try await browser.js("return Array.from(document.querySelectorAll('#threads .select:checked')).map(c => c.closest('.row').querySelector('.subject').textContent)") as? [String] ?? []
            #expect(picked.count == 3, "shift-click selected \(picked)")
            #expect(try await browser.string("return document.querySelector('.selection-count').textContent") == "3 selected")
            try await browser.click("#list-form button[value=archive]")
            try await world.eventually("the three archived on the server") { Set(try await inbox()).isDisjoint(with: picked) }
            #expect(Set(try await world.otherClient.messages(in: "Archive").map(\.subject)).isSuperset(of: picked))

            // New mail appears by server-sent events, without a reload. The inbox is on screen
            // in a focused window: the in-app banner shows it, the desktop banner is held back
            // (AC-N-12, NOTIF-19).
            try await Self.waitForViewing("inbox", browser)
            try await browser.js("window.vaultmailMarker = 1")
            try await browser.js(Self.recordBanners)
            try world.deliver(EndToEndWorld.message("Fresh news"))
            let arrival = try await browser.wait("return Array.from(document.querySelectorAll('#threads .subject')).some(s => s.textContent === 'Fresh news')", timeout: 60)
            print("delivered → row visible in the browser: \(arrival) ms (IDLE, sync, store, event, list fetch, render)")
            // The spec's bound for new mail (within 30 seconds of arrival). How fast it is
            // (about 0.5 s) is measured by vaultmail-bench (web-commit-to-row, e2e
            // append-to-notify), not here: a loaded 2-core machine can stall any test for seconds.
            #expect(arrival < 30_000, "the new row took \(arrival) ms")
            #expect(try await browser.number("return window.vaultmailMarker") == 1, "the page reloaded")
            try await browser.wait(Self.bannerShown("Fresh news"), timeout: 60)
            #expect(try await world.decision(about: "Fresh news").rule == "active-folder")
            #expect(!Self.desktopBanner(world, mentioning: "Fresh news"), "a desktop banner for the inbox on screen")

            // The conversation on screen: its new mail raises no banner at all (S3.4-AC5, SIB-1).
            try await world.openRow(browser, containing: "Quarterly plan")
            // The page says which conversation the server was told is on screen, once it answered.
            try await browser.wait("return document.body.dataset.viewing === document.querySelector('#conversation').dataset.thread", timeout: 60)
            try await browser.js(Self.recordBanners)
            let watched = "Re: Quarterly plan — one more thing"
            try world.deliver(EndToEndWorld.message(watched, from: "Grace Hopper <grace@example.org>",
                                                    headers: ["In-Reply-To: <plan-3@example.org>", "References: <plan-1@example.org> <plan-3@example.org>"]))
            let decision = try await world.decision(about: watched)
            #expect(decision.rule == "viewing-thread", "the banner rule for the conversation on screen: \(decision.rule)")
            try await browser.wait("return document.querySelectorAll('#conversation .message').length === 4", timeout: 60)
            // Another conversation arriving after it still shows in the app, so the page has had
            // every event about the watched one by then.
            try world.deliver(EndToEndWorld.message("Elsewhere"))
            try await browser.wait(Self.bannerShown("Elsewhere"), timeout: 60)
            let banners = try await browser.js("return window.vaultmailBanners") as? [String] ?? []
            #expect(!banners.contains { $0.contains("one more thing") }, "an in-app banner for the conversation on screen: \(banners)")
            #expect(!Self.desktopBanner(world, mentioning: "one more thing") && !Self.desktopBanner(world, mentioning: "Elsewhere"))

            // A list of another folder type on screen: inbox mail raises the desktop banner again.
            try await browser.get(try await browser.url.components(separatedBy: "/mail")[0] + "/mail?box=all:sent")
            try await Self.waitForViewing("all:sent", browser)
            try world.deliver(EndToEndWorld.message("While reading Sent"))
            try await world.waitForNotification(mentioning: "While reading Sent")
            try await world.screenshots(browser, name: "live")
        }
    }

    /// Records in `window.vaultmailBanners` the text of every in-app banner shown from now on
    /// (once per banner host): a banner leaves after 5 s, and a loaded machine may look later.
    static let recordBanners = """
        const host = document.querySelector('#banners');
        if (window.vaultmailBannersHost !== host) {
          window.vaultmailBannersHost = host;
          window.vaultmailBanners = window.vaultmailBanners || [];
          new MutationObserver(changes => changes.forEach(c => c.addedNodes.forEach(n => window.vaultmailBanners.push(n.textContent))))
            .observe(host, {childList: true});
        }
        """

    /// A script true once an in-app banner mentioning `text` has been shown (`recordBanners`).
    static func bannerShown(_ text: String) -> String {
        "return (window.vaultmailBanners || []).some(t => t.includes('\(text)'))"
    }

    /// Whether the notification server was asked to show a banner mentioning `text`.
    /// Waits until the page says the server was told `box` is on screen; if it never does, the
    /// failure says whether the page had the focus and was visible (what the report needs).
    static func waitForViewing(_ box: String, _ browser: BrowserSession) async throws {
        do {
            try await browser.wait("return document.body.dataset.viewingBox === '\(box)'", timeout: 60)
        } catch {
            let state = try? await browser.string("return 'hasFocus ' + document.hasFocus() + ', ' + document.visibilityState + ', viewingBox ' + document.body.dataset.viewingBox")
            Issue.record("the page never said \(box) is on screen: \(state ?? "unknown")")
            throw error
        }
    }

    static func desktopBanner(_ world: EndToEndWorld, mentioning text: String) -> Bool {
        world.notifications.calls("Notify").contains { (($0["summary"] as? String ?? "") + ($0["body"] as? String ?? "")).contains(text) }
    }

    @Test("AC-P-04: with the server gone the page says it is offline and the local mail still reads; back online it clears")
    func offline() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 2)
            try await world.addAccount()
            try await world.startDaemon(["--reconnect-max-seconds", "2"])
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            #expect(try await browser.js("return document.querySelector('#connection').hidden") as? Bool == true)

            world.dovecot.kill()
            try await browser.wait("return !document.querySelector('#connection').hidden", timeout: 60)
            #expect(try await browser.string("return document.querySelector('#connection').textContent").contains("Offline"))
            try await world.openRow(browser, containing: "Quarterly plan")
            #expect(try await browser.number("return document.querySelectorAll('#conversation .message').length") == 3)
            try await world.expectAccessible(browser, page: "offline")
            try await world.screenshots(browser, name: "offline")

            try await world.dovecot.restart()
            try await browser.wait("return document.querySelector('#connection').hidden", timeout: 120)
        }
    }

    @Test("Hostile HTML mail runs nothing and fetches nothing; remote images load only when asked")
    func hostileMail() async throws {
        try await EndToEndWorld.with { world in
            let recorder = try await RecordingHTTPServer.start()
            defer { recorder.stop() }
            try world.deliver(EndToEndWorld.hostileMessage(recorder: recorder.port))
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            try await world.openRow(browser, containing: "Hostile HTML")
            try await browser.wait("return document.querySelector('#conversation iframe') !== null")
            try await world.waitForFrame(browser)
            #expect(try await browser.js("return window.vaultmailPwned === undefined") as? Bool == true, "mail ran script in the app")
            let frame = try await browser.frameJS("#conversation iframe", """
                return {scripts: document.querySelectorAll('#vm-content script').length, ours: document.scripts.length, handlers: Array.from(document.querySelectorAll('*')).filter(e => Array.from(e.attributes).some(a => a.name.startsWith('on'))).length,
                        forms: document.querySelectorAll('form, input, iframe, object, embed, svg, base[href], meta[http-equiv], link').length,
                        jsLinks: Array.from(document.querySelectorAll('a')).filter(a => /^\\s*javascript:/i.test(a.getAttribute('href') || '')).length,
                        real: (() => { const a = Array.from(document.querySelectorAll('a')).find(a => a.textContent === 'a real link'); return a ? [a.target, a.rel, a.title] : null })(),
                        pwned: window.vaultmailPwned === undefined ? null : String(window.vaultmailPwned)}
                """) as? [String: Any]
            // The mail's content holds no script; the frame's one script is ours (its height report, issue 29).
            #expect(frame?["scripts"] as? Int == 0)
            #expect(frame?["ours"] as? Int == 1)
            #expect(frame?["handlers"] as? Int == 0)
            #expect(frame?["forms"] as? Int == 0)
            #expect(frame?["jsLinks"] as? Int == 0)
            #expect(frame?["pwned"] == nil || frame?["pwned"] is NSNull)
            let link = frame?["real"] as? [String]
            #expect(link?[0] == "_blank")
            #expect(link?[1].contains("noopener") == true && link?[1].contains("noreferrer") == true)
            #expect(link?[2] == "http://127.0.0.1:\(recorder.port)/ok", "the link shows its real target")
            #expect(recorder.requests.isEmpty, "the mail fetched: \(recorder.requests)")
            try await world.expectAccessible(browser, page: "a conversation with blocked images")
            try await world.screenshots(browser, name: "hostile")

            // Asked for, remote images load — so the recorder would have seen anything fetched before.
            try await browser.click(".images-bar a")
            try await browser.wait("return document.querySelector('#conversation iframe') !== null && location.search.includes('images=')")
            try await world.waitForFrame(browser)
            try await world.eventually("the backgrounds fetched once asked for") {
                recorder.requests.contains { $0.contains("/bg.png") } && recorder.requests.contains { $0.contains("/td.png") }
            }
            // The 1×1 pixel is a tracker: the shield removes it even with images shown (issue 30).
            let forbidden = ["/script", "/refresh", "/base", "/link.css", "/import.css", "/iframe", "/object", "/embed", "/form", "/svg.png", "/srcset.png",
                             "/poster.png", "/audio.mp3", "/pixel.gif"]
            let leaked = recorder.requests.filter { request in forbidden.contains { request.contains("GET \($0)") || request.contains("POST \($0)") } }
            #expect(leaked.isEmpty, "fetched though never allowed: \(leaked)")
            #expect(try await browser.js("return window.vaultmailPwned === undefined") as? Bool == true)
        }
    }
}

extension EndToEndWorld {
    /// Waits until the open message's frame has loaded, with everything it would fetch.
    func waitForFrame(_ browser: BrowserSession) async throws {
        try await eventually("the message frame loaded", timeout: .seconds(30)) {
            (try? await browser.frameJS("#conversation iframe", "return document.readyState")) as? String == "complete"
        }
    }
}
