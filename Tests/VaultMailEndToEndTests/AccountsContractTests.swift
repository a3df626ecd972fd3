import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 28's contract for accounts and notification settings: the same request through the
/// `vaultmail` tool and through the web app (Chromium, against the running daemon) has the same
/// outcome on the real servers and the store, in the same words — both doors ask Core's
/// `Accounts` and `NotificationSettings`.
@Suite("Contract: accounts, notification switches, VIPs and muting, the same through the tool and the web app (issue 28)", .serialized)
struct AccountsContractTests {
    // MARK: Adding an account

    @Test("AC-U-13, AC-SEC-02: adding a password account by either door refuses the same bad name in the same words, and stores the same account with its password in the keyring only")
    func addingIsTheSame() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try await world.startDaemon(accounts: false)
            let browser = try await world.signedInBrowser(landing: "/welcome")
            defer { browser.stop() }
            let servers = [
                "username": EndToEndWorld.user, "imapHost": "127.0.0.1", "imapPort": "\(world.dovecot.imapsPort)",
                "smtpHost": "127.0.0.1", "smtpPort": "\(world.smtp.tlsPort)", "caFile": world.dovecot.caFile, "password": EndToEndWorld.password,
            ]
            func tool(_ name: String) async throws -> EndToEndWorld.Output {
                try await world.vaultmail([
                    "account", "add", name, "--email", EndToEndWorld.address, "--imap", "127.0.0.1:\(world.dovecot.imapsPort)",
                    "--smtp", "127.0.0.1:\(world.smtp.tlsPort)", "--ca-file", world.dovecot.caFile, "--user", EndToEndWorld.user, "--password-stdin",
                ], input: EndToEndWorld.password + "\n")
            }
            let stored = "SELECT name || '|' || email || '|' || imapHost || '|' || imapPort || '|' || smtpHost || '|' || smtpPort || '|' || security"
                + " || '|' || username || '|' || authMethod || '|' || ifnull(credentialCommand, '-') || '|' || caFile || '|' || syncWindowDays FROM account"

            // A name the rule refuses.
            let refusedByTool = try await tool("my work")
            let refusedByWeb = try await Self.onboard(browser, servers.merging(["name": "my work"]) { $1 })
            #expect(refusedByTool.status == 2)
            #expect(refusedByWeb.problems.count == 1 && refusedByTool.text == "error: \(refusedByWeb.problems.first ?? "")\n",
                    "tool: \(refusedByTool.text) web: \(refusedByWeb.problems)")
            #expect(try await Self.sql(world, "SELECT count(*) FROM account") == "0")
            #expect(try await Self.keyringItems(world) == 0)

            // A good one: the same row, the password in the keyring and nowhere in the store.
            let added = try await tool("work")
            #expect(added.status == 0, "\(added.text)")
            let byTool = try await Self.sql(world, stored)
            #expect(try await Self.keyringItems(world) == 1)
            #expect(!(try Data(contentsOf: world.home.appendingPathComponent("vaultmail.sqlite"))).contains(Data(EndToEndWorld.password.utf8)))
            #expect(try await world.vaultmail(["account", "remove", "work"]).status == 0)

            let addedByWeb = try await Self.onboard(browser, servers.merging(["name": "work"]) { $1 })
            #expect(addedByWeb.added, "\(addedByWeb.problems)")
            #expect(try await Self.sql(world, stored) == byTool)
            #expect(try await Self.keyringItems(world) == 1)
            #expect(!(try Data(contentsOf: world.home.appendingPathComponent("vaultmail.sqlite"))).contains(Data(EndToEndWorld.password.utf8)))
            #expect(byTool == "work|\(EndToEndWorld.address)|127.0.0.1|\(world.dovecot.imapsPort)|127.0.0.1|\(world.smtp.tlsPort)|tls|\(EndToEndWorld.user)|password|-|\(URL(fileURLWithPath: world.dovecot.caFile).standardizedFileURL.path)|\(AppConstants.defaultSyncWindowDays)")
        }
    }

    // MARK: Removing an account

    @Test("AC-SEC-03: removing an OAuth2 account by either door deletes its keyring entry, revokes its sign-in at the provider and leaves no setting")
    func removalIsTheSame() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            let oauth = try await OAuthTestServer.start(clientSecret: "packager-secret", user: EndToEndWorld.user)
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-accounts-contract-\(UUID().uuidString.prefix(8))")
            defer {
                oauth.stop()
                keyring.stop()
                try? FileManager.default.removeItem(at: scratch)
            }
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            // The "browser" xdg-open starts: it asks for the consent page and follows its redirect.
            let browserScript = scratch.appendingPathComponent("browser")
            try """
                #!/bin/sh
                exec /usr/bin/python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=30).read()' "$1"

                """.write(to: browserScript, atomically: true, encoding: .utf8)
            chmod(browserScript.path, 0o755)
            world.setEnvironment([
                "BROWSER": browserScript.path, "XDG_CONFIG_HOME": scratch.path,
                "VAULTMAIL_OAUTH_AUTHORIZATION_URL": oauth.authorizationEndpoint.absoluteString,
                "VAULTMAIL_OAUTH_TOKEN_URL": oauth.tokenEndpoint.absoluteString,
                "VAULTMAIL_OAUTH_REVOCATION_URL": oauth.revocationEndpoint.absoluteString,
                "VAULTMAIL_GMAIL_CLIENT_SECRET": "packager-secret",
                "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "XDG_CURRENT_DESKTOP": nil, "DESKTOP_SESSION": nil,
            ])

            /// Adds the OAuth2 account with the tool, switches its notifications off (a setting
            /// kept for it), and checks what is kept: the keyring entry, a refresh token that works.
            func addSignedIn() async throws -> String {
                let added = try await world.vaultmail([
                    "account", "add", "gmail", "--provider", "gmail", "--email", "ada@gmail.com", "--oauth-client-id", oauth.clientID,
                    "--imap", "127.0.0.1:\(world.dovecot.imapsPort)", "--smtp", "127.0.0.1:\(world.smtp.tlsPort)",
                    "--ca-file", world.dovecot.caFile, "--user", EndToEndWorld.user,
                ])
                try #require(added.status == 0, "\(added.text)")
                #expect(try await world.vaultmail(["notify", "account", "gmail", "off"]).status == 0)
                #expect(try await Self.keyringItems(world) == 1)
                #expect(try await Self.refreshable(oauth) >= 1)
                #expect(try await Self.sql(world, "SELECT count(*) FROM accountSetting") != "0")
                return try await Self.sql(world, "SELECT id FROM account WHERE name = 'gmail'")
            }

            /// What removing left behind, the same whichever door removed it.
            func expectEverythingGone(_ door: String) async throws {
                #expect(try await Self.keyringItems(world) == 0, "\(door): the keyring entry stayed")
                #expect(try await Self.refreshable(oauth) == 0, "\(door): the refresh token still works at the provider")
                #expect(try await Self.sql(world, "SELECT count(*) FROM account") == "0", "\(door): the account stayed")
                #expect(try await Self.sql(world, "SELECT count(*) FROM accountSetting") == "0", "\(door): a setting stayed")
            }

            // Through the tool.
            _ = try await addSignedIn()
            let removed = try await world.vaultmail(["account", "remove", "gmail"])
            #expect(removed.status == 0, "\(removed.text)")
            try await expectEverythingGone("tool")

            // Through the web app: the account's page, Remove, confirmed.
            let id = try await addSignedIn()
            try await world.startDaemon(accounts: false)
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.js("location.href = '/settings/account/remove?id=' + encodeURIComponent(arguments[0])", [id])
            try await browser.wait("return document.querySelector('#confirm-remove') !== null")
            try await browser.click("#confirm-remove")
            try await browser.wait("return location.pathname === '/settings' && document.querySelector('#settings-status').textContent.includes('Removed account')", timeout: 30)
            let notice = try await browser.string("return document.querySelector('#settings-status').textContent").trimmingCharacters(in: .whitespacesAndNewlines)
            try await expectEverythingGone("web app")

            #expect(notice == removed.text.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(notice == "Removed account 'gmail' and all its mail, folders and settings from this machine. "
                + "Its sign-in was removed from the keyring. Its sign-in was revoked at Google.")
        }
    }

    // MARK: Switching notifications on

    @Test("AC-N-02, E-19, NOTIF-02: switching notifications on asks the notification server; refused, both doors leave them off and say the same")
    func switchingOnNeedsPermission() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            #expect(try await world.vaultmail(["notify", "off"]).status == 0)
            #expect(try await world.vaultmail(["notify", "account", "work", "off"]).status == 0)
            // No notification server on the bus: permission is refused.
            world.notifications.stop()

            let toolRefused = try await world.vaultmail(["notify", "on"])
            let toolAccountRefused = try await world.vaultmail(["notify", "account", "work", "on"])
            #expect(toolRefused.status == 1 && toolAccountRefused.status == 1)
            var status = try await world.vaultmail(["notify", "status"]).text
            #expect(status.contains("Notifications: off") && status.contains("Account work: off"), "\(status)")

            try await world.startDaemon(accounts: false)
            let browser = try await world.signedInBrowser(landing: "/mail")
            defer { browser.stop() }
            try await browser.js("location.href = '/settings'")
            try await browser.wait("return document.querySelector('#settings-title') !== null")
            let webRefused = try await Self.flip(browser, "notifications")
            let accountSwitch = try await browser.string("return document.querySelector('input[name^=\"account:\"]').id").replacingOccurrences(of: "sw-", with: "")
            try await browser.js("location.reload()")
            try await browser.wait("return document.querySelector('#settings-title') !== null")
            let webAccountRefused = try await Self.flip(browser, accountSwitch)
            status = try await world.vaultmail(["notify", "status"]).text
            #expect(status.contains("Notifications: off") && status.contains("Account work: off"), "after the web app: \(status)")

            let refusal = "VaultMail may not show notifications ("
            #expect(webRefused.hasPrefix(refusal) && webRefused.hasSuffix("switch them on again."), "\(webRefused)")
            #expect(toolRefused.text == "error: \(webRefused)\n", "tool: \(toolRefused.text)\nweb: \(webRefused)")
            #expect(toolAccountRefused.text == "error: \(webAccountRefused)\n")

            // A notification server again: permission is granted, by either door.
            let server = try await RecordingNotificationServer.start(on: world.bus)
            defer { server.stop() }
            #expect(try await world.vaultmail(["notify", "account", "work", "on"]).status == 0)
            #expect(try await world.vaultmail(["notify", "account", "work", "off"]).status == 0)
            try await browser.js("location.reload()")
            try await browser.wait("return document.querySelector('#settings-title') !== null")
            #expect(try await Self.flip(browser, "notifications").hasPrefix("Saved"))
            status = try await world.vaultmail(["notify", "status"]).text
            #expect(status.contains("Notifications: on"), "\(status)")
        }
    }

    // MARK: VIPs and muting

    @Test("AC-N-08, NOTIF-10/11: the tool and the web app accept and refuse the same VIP addresses and unmutes, in the same words")
    func vipAndMuteRules() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message("Lunch plans"))
            try await world.addAccount()
            #expect(try await world.vaultmail(["sync"]).status == 0)
            let thread = try #require(try await world.inboxThreads().first { $0.subject == "Lunch plans" })
            try await world.startDaemon(accounts: false)
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }

            for input in ["boss", "boss @example.org", "@example.org", "boss@exa,mple.org>"] {
                let tool = try await world.vaultmail(["notify", "vip", "add", input])
                #expect(tool.status == 2, "\(input): \(tool.text)")
                let settingsPage = try await Self.post(browser, "/settings/vip", ["add": input])
                let fromMessage = try await Self.post(browser, "/actions", ["one": "vip:\(input)"])
                #expect(settingsPage.status == 400 && fromMessage.status == 400, "\(input)")
                #expect(tool.text == "error: \(settingsPage.message)\n", "\(input): tool \(tool.text) web \(settingsPage.message)")
                #expect(settingsPage.message == fromMessage.message)
                #expect(settingsPage.message.hasPrefix("'\(input)' cannot be a VIP: "))
            }
            let tool = try await world.vaultmail(["notify", "vip", "add", " Boss@Example.org "])
            let web = try await Self.post(browser, "/settings/vip", ["add": "Boss@Example.org"])
            #expect(tool.status == 0 && web.status == 200)
            #expect(tool.text.trimmingCharacters(in: .whitespacesAndNewlines) == web.message)
            #expect(try await world.vaultmail(["notify", "vip", "list"]).text == "boss@example.org\n")

            // Unmuting a conversation that is not muted.
            let toolUnmute = try await world.vaultmail(["notify", "unmute", thread.id])
            let webUnmute = try await Self.post(browser, "/actions", ["action": "unmute", "t[]": thread.id])
            #expect(toolUnmute.status == 1 && webUnmute.status == 400)
            #expect(toolUnmute.text == "error: \(webUnmute.message)\n", "tool \(toolUnmute.text) web \(webUnmute.message)")
            #expect(webUnmute.message == "That conversation isn't muted.", "no internal id in the words (issue 29)")
        }
    }

    // MARK: Helpers

    /// Posts the onboarding's servers form (`/welcome/servers`) with `fields`, as its Add button
    /// does; whether the account was added, and the problems the page lists.
    static func onboard(_ browser: BrowserSession, _ fields: [String: String]) async throws -> (added: Bool, problems: [String]) {
        try await browser.js("location.href = '/welcome/servers?email=' + encodeURIComponent(arguments[0])", [EndToEndWorld.address])
        try await browser.wait("return location.pathname === '/welcome/servers' && document.querySelector('#account-form') !== null")
        try await browser.js("""
            window.__reply = null;
            const form = new FormData(document.querySelector('#account-form'));
            for (const [name, value] of Object.entries(arguments[0])) form.set(name, value);
            const token = (document.querySelector('meta[name="csrf-token"]') || {}).content || '';
            fetch('/welcome/add', { method: 'POST', body: new URLSearchParams(form), credentials: 'same-origin', headers: { 'X-CSRF-Token': token } })
                .then(r => r.text()).then(html => {
                    const page = new DOMParser().parseFromString(html, 'text/html');
                    window.__reply = JSON.stringify({ added: page.querySelector('#to-mail') !== null,
                                                      problems: Array.from(page.querySelectorAll('.notice.error li')).map(li => li.textContent) });
                });
            """, [fields])
        try await browser.wait("return window.__reply !== null", timeout: 60)
        let reply = try ToolJSON.object(try await browser.string("return window.__reply"))
        return (reply["added"] as? Bool ?? false, reply["problems"] as? [String] ?? [])
    }

    /// Operates a settings switch from the keyboard and returns what the page then says.
    static func flip(_ browser: BrowserSession, _ name: String) async throws -> String {
        try await browser.js("document.querySelector('#settings-status').textContent = ''; document.querySelector('#sw-' + arguments[0]).focus()", [name])
        try await browser.keys([" "])
        try await browser.wait("return document.querySelector('#settings-status').textContent !== ''")
        return try await browser.string("return document.querySelector('#settings-status').textContent")
    }

    /// Posts a form as the page's scripts do (CSRF token, JSON asked for); the status and message.
    static func post(_ browser: BrowserSession, _ path: String, _ fields: [String: String]) async throws -> (status: Int, message: String) {
        try await browser.js("""
            window.__reply = null;
            const token = (document.querySelector('meta[name="csrf-token"]') || {}).content || '';
            const body = new URLSearchParams(arguments[1]);
            body.append('csrf', token);
            fetch(arguments[0], { method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'application/json', 'X-CSRF-Token': token } })
                .then(async r => { window.__reply = JSON.stringify({ status: r.status, message: (await r.json()).message || '' }); });
            """, [path, fields])
        try await browser.wait("return window.__reply !== null")
        let reply = try ToolJSON.object(try await browser.string("return window.__reply"))
        return ((reply["status"] as? NSNumber)?.intValue ?? 0, reply["message"] as? String ?? "")
    }

    /// The keyring items VaultMail keeps (`application=vaultmail`), asked of the Secret Service.
    static func keyringItems(_ world: EndToEndWorld) async throws -> Int {
        let reply = try await ProcessCapture.run("/usr/bin/dbus-send", [
            "--bus=\(world.bus.address)", "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
            "org.freedesktop.Secret.Service.SearchItems", "dict:string:string:application,vaultmail",
        ], timeout: .seconds(10))
        let text = String(decoding: reply.output, as: UTF8.self)
        try #require(reply.status == 0, "\(text)")
        return text.components(separatedBy: "object path \"/org/freedesktop/secrets/collection/").count - 1
    }

    /// How many of the tokens the provider issued still get an access token as refresh tokens.
    static func refreshable(_ oauth: OAuthTestServer) async throws -> Int {
        let tokens = try await oauth.issuedTokens()
        let script = """
            import json, sys, urllib.parse, urllib.request
            ok = 0
            for token in json.load(sys.stdin):
                body = urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": token,
                                               "client_id": sys.argv[2], "client_secret": sys.argv[3]}).encode()
                try:
                    urllib.request.urlopen(sys.argv[1], body, timeout=10).read()
                    ok += 1
                except Exception:
                    pass
            print(ok)
            """
        let result = try await ProcessCapture.run("/usr/bin/python3", ["-c", script, oauth.tokenEndpoint.absoluteString, oauth.clientID, "packager-secret"],
                                                  input: try JSONSerialization.data(withJSONObject: tokens), timeout: .seconds(60))
        return Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// One value the store answers `query` with (read with Python's sqlite3, beside the tool).
    static func sql(_ world: EndToEndWorld, _ query: String) async throws -> String {
        let database = world.home.appendingPathComponent("vaultmail.sqlite").path
        let result = try await ProcessCapture.run("/usr/bin/python3", [
            "-c", "import sqlite3, sys; row = sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone(); print(row[0] if row else '')",
            database, query,
        ], timeout: .seconds(30))
        return String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
