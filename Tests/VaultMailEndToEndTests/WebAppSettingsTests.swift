import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 13's settings in a real browser, against the running daemon: each notification
/// setting changed on the page changes the daemon's decision about the next mail, and
/// `vaultmail notify why` says the same.
@Suite("Web app in a browser: settings (issue 13)", .serialized)
struct WebAppSettingsTests {
    /// Operates a switch from the keyboard (AC-N-22) and waits until the page says it was saved.
    static func flip(_ browser: BrowserSession, _ name: String) async throws {
        try await browser.js("document.querySelector('#settings-status').textContent = ''; document.querySelector('#sw-' + arguments[0]).focus()", [name])
        try await browser.keys([" "])
        try await browser.wait("return /Saved/.test(document.querySelector('#settings-status').textContent)")
    }

    /// Delivers a message and returns the daemon's decision about it, after checking that
    /// `notify why` gives the same rule.
    static func decide(_ world: EndToEndWorld, _ subject: String, from: String = "Grace Hopper <grace@example.org>",
                       headers: [String] = []) async throws -> EndToEndWorld.Decision {
        try world.deliver(EndToEndWorld.message(subject, from: from, headers: headers))
        let decision = try await world.decision(about: subject)
        let why = try await world.vaultmail(["notify", "why", decision.emailId])
        #expect(why.text.contains(decision.explanation), "notify why disagrees: \(why.text) vs \(decision.explanation)")
        return decision
    }

    @Test("NOTIF-22/23, AC-N-21/22: master, account, quiet hours, VIP, sound, mute and category settings change the daemon's next decision")
    func notificationSettings() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 1)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.js("location.href = '/settings'")
            try await browser.wait("return document.querySelector('#settings-title') !== null")
            #expect(try await browser.string("return document.querySelector('label[for=\"sw-account-acct-work\"], label[for^=\"sw-account\"]').textContent")
                .contains("Notifications for work (\(EndToEndWorld.address))"))
            #expect(try await browser.string("return document.querySelector('label[for=quiet-start]').textContent") == "Quiet hours start time")
            // The desktop's notification server in words, never the specification's names.
            let desktop = try await browser.string("return document.querySelector('section[aria-labelledby=desktop-title]').textContent")
            #expect(desktop.contains("Banners can show"
                + "Buttons, replies typed into the banner, a preview of the message, bold and italic text and banners kept until dismissed"), "\(desktop)")
            #expect(!desktop.contains("body-markup") && !desktop.contains("inline-reply"), "\(desktop)")
            try await world.screenshots(browser, name: "settings")
            try await world.expectAccessible(browser, page: "the settings")

            try await Self.flip(browser, "notifications")
            #expect(try await Self.decide(world, "Hush one").rule == "notifications-off")
            try await Self.flip(browser, "notifications")

            let accountSwitch = try await browser.string("return document.querySelector('input[name^=\"account:\"]').id").replacingOccurrences(of: "sw-", with: "")
            try await Self.flip(browser, accountSwitch)
            #expect(try await Self.decide(world, "Hush two").rule == "account")
            try await Self.flip(browser, accountSwitch)

            // Quiet hours around now, in the daemon's time zone (this machine's).
            let minutes = Calendar.current.component(.hour, from: Date()) * 60 + Calendar.current.component(.minute, from: Date())
            let clock = { (m: Int) in String(format: "%02d:%02d", ((m + 1440) % 1440) / 60, ((m + 1440) % 1440) % 60) }
            try await browser.js("""
                const s = document.querySelector('#quiet-start'), e = document.querySelector('#quiet-end');
                s.value = arguments[0]; e.value = arguments[1]; e.dispatchEvent(new Event('change', { bubbles: true }));
                """, [clock(minutes - 60), clock(minutes + 60)])
            try await browser.wait("return /Saved/.test(document.querySelector('#settings-status').textContent)")
            try await Self.flip(browser, "quietHours")
            #expect(try await Self.decide(world, "Quiet please", from: "Linus <linus@example.net>").rule == "quiet-hours")

            // A VIP added on the page notifies even in quiet hours.
            try await browser.click("#vip-add")
            try await browser.keys(["grace@example.org", "ENTER"])
            try await browser.wait("return document.querySelector('#vip-list').textContent.includes('grace@example.org')")
            let vip = try await Self.decide(world, "From a VIP")
            #expect(vip.rule == "vip" && vip.outcome == "notified")
            try await Self.flip(browser, "quietHours")

            // Sound off: the banner asks the server for silence.
            try await Self.flip(browser, "sound")
            try world.deliver(EndToEndWorld.message("Silent banner", from: "Linus <linus@example.net>"))
            let banner = try await world.waitForNotification(mentioning: "Silent banner")
            let hints = banner["hints"] as? [String: Any] ?? [:]
            #expect(hints["suppress-sound"] != nil && hints["sound-name"] == nil, "hints: \(hints)")

            // A conversation muted elsewhere is listed and unmuted here (not from the VIP, who overrides muting).
            let plan = try #require(try await world.inboxThreads().first { $0.subject == "Quarterly plan" || $0.subject == "Re: Quarterly plan" })
            #expect(try await world.vaultmail(["notify", "mute", plan.id]).status == 0)
            try world.deliver(EndToEndWorld.message("Re: Quarterly plan — muted", from: "Linus <linus@example.net>", headers: ["In-Reply-To: <plan-3@example.org>", "References: <plan-1@example.org> <plan-3@example.org>"]))
            #expect(try await world.decision(about: "Re: Quarterly plan — muted").rule == "muted-thread")
            try await browser.js("location.reload()")
            try await browser.wait("return document.querySelector('#muted-list li[aria-label^=\"Muted thread: \"]') !== null")
            try await browser.js("document.querySelector('#muted-list button').click()")
            try await browser.wait("return document.querySelector('#muted-list li[aria-label^=\"Muted thread: \"]') === null")
            #expect(try await Self.decide(world, "Re: Quarterly plan — unmuted", from: "Linus <linus@example.net>", headers: ["In-Reply-To: <plan-3@example.org>", "References: <plan-1@example.org> <plan-3@example.org>"]).rule == "all-filters-passed")

            // A category switched off is what the daemon and the command line read.
            try await Self.flip(browser, "category-promotions")
            #expect(try await world.vaultmail(["notify", "status"]).text.contains("promotions"))

            // "Why (not) notified?" from a message lands on its decision.
            try await browser.js("location.href = '/settings?why=' + encodeURIComponent(arguments[0]) + '#why'", [vip.emailId])
            try await browser.wait("return document.querySelector('.why-answer') !== null && document.querySelector('.why-answer').textContent.includes('VIP')")
        }
    }

    @Test("AC-U-14: theme applies at once, undo delay and list density are kept; mark-read-on-open off leaves a conversation unread")
    func generalSettings() async throws {
        try await EndToEndWorld.with { world in
            try await world.deliverReadingMail(fillers: 1)
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.js("location.href = '/settings'")
            try await browser.wait("return document.querySelector('#settings-title') !== null")
            try await browser.js("document.querySelector('#settings-status').textContent = ''; document.querySelector('#theme-dark').click()")
            try await browser.wait("return document.documentElement.dataset.theme === 'dark' && /Saved/.test(document.querySelector('#settings-status').textContent)")
            try await browser.js("const s = document.querySelector('#undo-delay'); s.value = '10'; s.dispatchEvent(new Event('change', { bubbles: true }))")
            try await browser.wait("return /Saved/.test(document.querySelector('#settings-status').textContent)")
            try await browser.js("document.querySelector('#density-compact').click()")
            try await Self.flip(browser, "markReadOnOpen")
            try await browser.js("location.href = '/mail'")
            try await browser.wait("return document.body.classList.contains('compact') && document.documentElement.dataset.theme === 'dark'")
            try await world.openRow(browser, containing: "Quarterly plan")
            try await browser.js("location.reload()")
            try await browser.wait("return document.querySelector('#threads .row.unread .subject') !== null && Array.from(document.querySelectorAll('#threads .row.unread .subject')).some(s => s.textContent.includes('Quarterly plan'))")
            try await browser.js("location.href = '/settings'")
            try await browser.wait("return document.querySelector('#undo-delay') !== null && document.querySelector('#undo-delay').value === '10'")
        }
    }
}
