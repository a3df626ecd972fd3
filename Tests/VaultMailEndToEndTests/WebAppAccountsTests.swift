import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 13's accounts in a real browser: onboarding against the test Dovecot and SMTP server,
/// "Test connection" naming the step that failed, the password kept in the Secret Service, an
/// account's settings and its removal.
@Suite("Web app in a browser: accounts (issue 13)", .serialized)
struct WebAppAccountsTests {
    /// Fills the servers screen for this world's servers.
    static func fill(_ browser: BrowserSession, _ fields: [String: String]) async throws {
        try await browser.js("""
            document.querySelectorAll('#account-form details').forEach(d => d.open = true);
            for (const [name, value] of Object.entries(arguments[0])) { document.querySelector('#' + name).value = value; }
            """, [fields])
    }

    static func test(_ browser: BrowserSession, expecting text: String) async throws -> String {
        try await browser.js("document.querySelector('#check-result').innerHTML = ''")
        try await browser.click("#check")
        try await browser.wait("return document.querySelector('#check-result .conn-check') !== null", timeout: 60)
        let report = try await browser.string("return document.querySelector('#check-result').textContent")
        #expect(report.contains(text), "the test should say '\(text)': \(report)")
        return report
    }

    @Test("AC-U-12, E-06: three accounts: the unified inbox merges them newest first, each row's and section's mark names its account in one colour; an account's inbox shows its mail only; new mail is written from the default account, or from the account whose folder it was started in")
    func threeAccounts() async throws {
        try await EndToEndWorld.with { world in
            try world.dovecot.addUser("bob", password: EndToEndWorld.password)
            try world.dovecot.addUser("cleo", password: EndToEndWorld.password)
            // One message to each (the lists sort by arrival, which may share a second here).
            try world.deliver(EndToEndWorld.message("Work: quarterly plan"))
            try world.deliver(EndToEndWorld.message("Home: the boiler"), to: "bob")
            try world.deliver(EndToEndWorld.message("Club: Saturday's match"), to: "cleo")
            try await world.addAccount()
            try await world.addAccount(name: "home", user: "bob")
            try await world.addAccount(name: "club", user: "cleo")
            let made = try await world.vaultmail(["account", "default", "home"])
            #expect(made.status == 0 && made.text.contains("home"), "\(made.text)")
            #expect(try await world.vaultmail(["account", "list"]).text.contains("bob@localhost"))
            try await world.startDaemon()
            try await world.waitForLog("synced club")
            try await world.waitForLog("synced home")
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.wait("return document.querySelectorAll('#threads .row').length === 3", timeout: 60)

            // Merged newest first; each row's mark names its account, one colour per account, as the sidebar's sections.
            let rows = try await browser.js("""
                return Array.from(document.querySelectorAll('#threads .row')).map(r => {
                  const mark = r.querySelector('.acct-mark');
                  return [r.querySelector('.subject').textContent, mark ? mark.getAttribute('title') : '', mark ? mark.className : '', r.dataset.at];
                });
                """) as? [[String]] ?? []
            let arrivals = rows.map { Int64($0[3]) ?? 0 }
            #expect(arrivals == arrivals.sorted(by: >), "newest first: \(rows)")
            let owners = Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
            #expect(owners == ["Club: Saturday's match": "club", "Home: the boiler": "home", "Work: quarterly plan": "work"], "\(rows)")
            #expect(Set(rows.map { $0[2] }).count == 3, "three colours: \(rows)")
            let sections = try await browser.js("""
                return Array.from(document.querySelectorAll('#sidebar section.account')).map(s => [s.querySelector('h3').textContent, s.querySelector('.acct-mark').className]);
                """) as? [[String]] ?? []
            for row in rows {
                #expect(sections.contains { $0[0].hasPrefix(row[1]) && $0[1] == row[2] }, "the \(row[1]) section has the row's colour: \(sections)")
            }
            #expect(try await browser.string("return document.querySelector('#sidebar a[aria-current]').textContent").contains("All inboxes"))
            try await world.expectAccessible(browser, page: "the unified inbox of three accounts")
            try await world.screenshots(browser, name: "three-accounts")

            // New mail from the unified inbox: the default account.
            let base = try await browser.url.components(separatedBy: "/mail")[0]
            try await browser.get("\(base)/compose?return=%2Fmail%3Fbox%3Dinbox")
            try await browser.wait("return document.querySelector('#account') !== null")
            #expect(try await browser.string("return document.querySelector('#account').selectedOptions[0].textContent").contains("bob@localhost"))

            // Club's own inbox: its mail only, and new mail from there is written from club.
            try await browser.get("\(base)/mail")
            try await browser.wait("return document.querySelectorAll('#threads .row').length === 3")
            try await browser.js("""
                const club = Array.from(document.querySelectorAll('#sidebar section.account')).find(s => s.querySelector('h3').textContent.startsWith('club'));
                club.querySelector('a').click();
                """)
            try await browser.wait("return document.querySelectorAll('#threads .row').length === 1 && document.querySelector('#threads .row .subject').textContent === \"Club: Saturday's match\"")
            let clubInbox = try await browser.url
            try await browser.get("\(base)/compose?return=\(clubInbox.replacingOccurrences(of: base, with: "").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
            try await browser.wait("return document.querySelector('#account') !== null")
            #expect(try await browser.string("return document.querySelector('#account').selectedOptions[0].textContent").contains("cleo@localhost"))
        }
    }

    @Test("AC-U-13, AC-F-03: onboarding from the address; each failed step said with what to do; the password in the keyring only; then the mail")
    func onboarding() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try world.deliver(EndToEndWorld.message("Welcome aboard"))
            try await world.startDaemon(accounts: false)
            let browser = try await world.signedInBrowser(landing: "/welcome")
            defer { browser.stop() }
            #expect(try await browser.string("return document.querySelector('h1').textContent") == "Welcome to VaultMail")
            try await world.expectAccessible(browser, page: "the welcome screen")
            try await world.screenshots(browser, name: "welcome")
            try await browser.click("#email")
            try await browser.keys([EndToEndWorld.address])
            try await browser.click("#displayName")
            try await browser.keys(["Ada Lovelace", "ENTER"])
            try await browser.wait("return location.pathname === '/welcome/servers' && document.querySelector('#account-form') !== null")

            var servers = [
                "name": "work", "username": EndToEndWorld.user, "imapHost": "127.0.0.1", "imapPort": "\(world.dovecot.imapsPort)",
                "smtpHost": "127.0.0.1", "smtpPort": "\(world.smtp.tlsPort)", "caFile": world.dovecot.caFile, "password": "not-the-password",
            ]
            try await Self.fill(browser, servers)
            try await world.expectAccessible(browser, page: "the servers screen")
            let wrong = try await Self.test(browser, expecting: "Sign in to the incoming mail server as \(EndToEndWorld.user)")
            #expect(wrong.contains("127.0.0.1 refused the sign-in for \(EndToEndWorld.user). Check the password"), "in words: \(wrong)")
            #expect(wrong.contains("Check the user name and password"), "and the server's detail behind them: \(wrong)")

            servers["password"] = EndToEndWorld.password
            servers["caFile"] = ""
            try await Self.fill(browser, servers)
            let untrusted = try await Self.test(browser, expecting: "not signed by a trusted certificate authority")
            #expect(untrusted.range(of: "SHA-256 fingerprint is ([0-9A-F]{2}:){31}[0-9A-F]{2}", options: .regularExpression) != nil, "\(untrusted)")

            let closed = try BadInputEndToEndTests.closedPort()
            try await Self.fill(browser, ["caFile": world.dovecot.caFile, "imapPort": "\(closed)"])
            _ = try await Self.test(browser, expecting: "Server unreachable: can't reach 127.0.0.1.")

            let fake = try ChildProcess("/usr/bin/python3", ["-u", "-c", Self.fakeIMAP])
            defer { fake.stop() }
            try await waitUntil("the fake IMAP server's port") { fake.lines.first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } != nil }
            let fakePort = fake.lines[0].trimmingCharacters(in: .whitespaces)
            try await Self.fill(browser, ["imapPort": fakePort])
            try await browser.js("document.querySelector('input[name=security][value=starttls]').click()")
            _ = try await Self.test(browser, expecting: "does not offer STARTTLS")
            try await world.screenshots(browser, name: "onboarding-check")

            try await browser.js("document.querySelector('input[name=security][value=tls]').click()")
            try await Self.fill(browser, ["imapPort": "\(world.dovecot.imapsPort)"])
            _ = try await Self.test(browser, expecting: "Everything works")
            try await browser.click("#add")
            try await browser.wait("return document.querySelector('#to-mail') !== null", timeout: 60)
            #expect(!(try await browser.string("return document.documentElement.outerHTML")).contains(EndToEndWorld.password))
            let listed = try await world.vaultmail(["account", "list"])
            #expect(listed.text.contains("work") && listed.text.contains(EndToEndWorld.address))

            try await browser.click("#to-mail")
            try await browser.wait("return location.pathname === '/mail'")
            try await browser.wait("return Array.from(document.querySelectorAll('#threads .subject')).some(s => s.textContent === 'Welcome aboard')", timeout: 60)

            // The account's settings: a signature the composer uses; removal asks first, then takes everything.
            try await browser.js("location.href = '/settings#accounts'")
            try await browser.wait("return document.querySelector('a[aria-label=\"Settings of work\"]') !== null")
            try await browser.click("a[aria-label=\"Settings of work\"]")
            try await browser.wait("return document.querySelector('#signature') !== null")
            try await world.expectAccessible(browser, page: "an account's settings")
            try await browser.click("#signature")
            try await browser.keys(["Ada, from VaultMail"])
            try await browser.js("document.querySelector('#syncWindow').value = '\(AppConstants.allMailSyncWindowDays)'")
            try await browser.js("document.querySelector('#signature').form.submit()")
            try await browser.wait("return location.pathname === '/settings'")
            try await browser.js("location.href = '/compose'")
            try await browser.wait("return document.querySelector('#body') !== null && document.querySelector('#body').value.includes('-- \\nAda, from VaultMail')")
            try await browser.js("location.href = '/settings/account/remove?id=' + encodeURIComponent(arguments[0])", [try await Self.accountId(world)])
            try await browser.wait("return document.querySelector('#confirm-remove') !== null")
            try await world.expectAccessible(browser, page: "the removal confirmation")
            try await browser.click("#confirm-remove")
            try await browser.wait("return location.pathname === '/settings' && document.querySelector('#settings-status').textContent.includes(\"Removed account 'work'\")", timeout: 30)
            #expect(try await world.vaultmail(["account", "list"]).text.contains("No accounts"))
            try await browser.js("location.href = '/mail'")
            try await browser.wait("return location.pathname === '/welcome'")
        }
    }

    static func accountId(_ world: EndToEndWorld) async throws -> String {
        let threads = try await world.inboxThreads()
        let shown = try await world.vaultmail(["show", try #require(threads.first).id, "--json"], errors: false)
        let json = try ToolJSON.object(shown.text)
        return try #require(json["accountId"] as? String)
    }

    /// Speaks just enough IMAP to say it has no STARTTLS; prints its port first.
    static let fakeIMAP = """
        import socket
        s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(5); print(s.getsockname()[1], flush=True)
        while True:
            c, _ = s.accept(); f = c.makefile("rwb")
            f.write(b"* OK IMAP4rev1 no tls here\\r\\n"); f.flush()
            for line in f:
                tag = line.split(b" ")[0]
                if b"CAPABILITY" in line.upper(): f.write(b"* CAPABILITY IMAP4rev1\\r\\n" + tag + b" OK done\\r\\n")
                elif b"LOGOUT" in line.upper(): f.write(b"* BYE\\r\\n" + tag + b" OK bye\\r\\n"); f.flush(); break
                else: f.write(tag + b" BAD no\\r\\n")
                f.flush()
            c.close()
        """
}
