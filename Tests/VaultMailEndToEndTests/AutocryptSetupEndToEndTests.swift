import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 32's Autocrypt Setup Message through the tool and the web app: `key setup-message`
/// sends the account's key to itself as Level 1 §4.4 says (GnuPG opens the payload with the code
/// shown), a second VaultMail on the same mailbox imports it with `key import-setup` (a wrong
/// code refused, nothing changed) and then has the same key; in the web app Settings →
/// Encryption sends one and shows the code, and the message offers "Import this key".
@Suite("Autocrypt Setup Message through the tool and the web app (issue 32)", .serialized)
struct AutocryptSetupEndToEndTests {
    /// The setup code the tool printed: the three indented lines of dashed digit blocks.
    static func code(in output: String) -> String? {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.wholeMatch(of: /[0-9]{4}(-[0-9]{4}){2}-?/) != nil }
        return lines.count == 3 ? lines.joined() : nil
    }

    /// The decoded content of the message's `application/autocrypt-setup` part.
    static func payload(in raw: String) -> String? {
        guard let start = raw.range(of: "Content-Type: application/autocrypt-setup") else { return nil }
        let rest = raw[start.upperBound...]
        guard let blank = rest.range(of: "\r\n\r\n") else { return nil }
        let body = rest[blank.upperBound...]
        let content = body[..<(body.range(of: "\r\n--")?.lowerBound ?? body.endIndex)]
        guard rest[..<blank.lowerBound].lowercased().contains("base64"),
              let data = Data(base64Encoded: content.replacingOccurrences(of: "\r\n", with: "")) else { return String(content) }
        return String(decoding: data, as: UTF8.self)
    }

    static func fingerprint(_ world: EndToEndWorld) async throws -> String? {
        let status = try await world.vaultmail(["key", "status", "work"])
        return status.text.split(separator: "\n").first { $0.contains("fingerprint ") }
            .map { String($0.split(separator: " ").last ?? "") }
    }

    /// The id of the inbox email whose subject is `subject`.
    static func emailId(_ world: EndToEndWorld, subject: String) async throws -> String? {
        struct Shown: Decodable { struct Email: Decodable { var id: String; var subject: String }; var emails: [Email] }
        for thread in try await world.inboxThreads() {
            let output = try await world.vaultmail(["show", thread.id, "--json"], errors: false)
            if let email = try ToolJSON.decode(Shown.self, from: output.text).emails.first(where: { $0.subject == subject }) { return email.id }
        }
        return nil
    }

    @Test("key setup-message sends the key to the account itself as Level 1 says and prints the code once; GnuPG opens the payload with it; another VaultMail on the mailbox refuses a wrong code (nothing changed) and with the right one has the same key")
    func roundTripThroughTheTool() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try await world.addAccount()
            let sent = try await world.vaultmail(["key", "setup-message", "work"])
            try #require(sent.status == 0, "\(sent.text)")
            let code = try #require(Self.code(in: sent.text), "no code in: \(sent.text)")
            let original = try #require(try await Self.fingerprint(world))

            // The message as Level 1 lays it out.
            let raw = try await world.smtp.waitForMessages(count: 1)[0]
            let wire = String(decoding: raw.raw, as: UTF8.self)
            #expect(raw.recipients == [EndToEndWorld.address])
            #expect(wire.hasPrefix("Autocrypt-Setup-Message: v1\r\n"))
            #expect(wire.contains("From: \(EndToEndWorld.address)") || wire.contains("<\(EndToEndWorld.address)>"))
            #expect(wire.contains("Content-Type: multipart/mixed"))
            let textAt = try #require(wire.range(of: "Content-Type: text/plain"))
            let setupAt = try #require(wire.range(of: "Content-Type: application/autocrypt-setup"))
            #expect(textAt.lowerBound < setupAt.lowerBound, "the explanation comes first")
            #expect(!wire.contains(code) && !wire.contains(code.replacingOccurrences(of: "-", with: "")), "the code is not in the message")
            let payload = try #require(Self.payload(in: wire))
            #expect(payload.contains("-----BEGIN PGP MESSAGE-----\nPassphrase-Format: numeric9x4\nPassphrase-Begin: \(code.prefix(2))\n"), "\(payload.prefix(120))")

            // GnuPG, with the code alone, finds the account's key.
            let home = world.home.appendingPathComponent("gnupg-reader").path
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try payload.write(toFile: home + "/payload.asc", atomically: true, encoding: .utf8)
            let opened = try await ProcessCapture.run(
                "/usr/bin/gpg", ["--homedir", home, "--batch", "--no-tty", "--pinentry-mode", "loopback", "--passphrase-fd", "0", "--decrypt", home + "/payload.asc"],
                input: Data((code + "\n").utf8), includeErrors: false, timeout: .seconds(60))
            let key = String(decoding: opened.output, as: UTF8.self)
            #expect(opened.status == 0 && key.contains("-----BEGIN PGP PRIVATE KEY BLOCK-----") && key.contains("Autocrypt-Prefer-Encrypt: mutual"))
            #expect(try await OpenPGPPeer.fingerprint(of: key, in: home) == original)
            _ = try? await ProcessCapture.run("/usr/bin/gpgconf", ["--homedir", home, "--kill", "all"], timeout: .seconds(10))

            // Another VaultMail on the same mailbox (a home of its own): it sees the message in
            // Sent (filed there) and in the inbox (delivered), and imports it.
            try world.deliver(raw.raw)
            let first = world.home
            let second = first.deletingLastPathComponent().appendingPathComponent(first.lastPathComponent + "-second")
            world.setEnvironment(["VAULTMAIL_HOME": second.path])
            defer { world.setEnvironment(["VAULTMAIL_HOME": first.path]); try? FileManager.default.removeItem(at: second) }
            try await world.addAccount()
            let synced = try await world.vaultmail(["sync"])
            try #require(synced.status == 0, "\(synced.text)")
            let id = try #require(try await Self.emailId(world, subject: "Autocrypt Setup Message"))
            #expect(try await Self.fingerprint(world) == nil, "the second VaultMail has no key yet")

            let wrong = try await world.vaultmail(["key", "import-setup", id], input: String(repeating: "1234-", count: 8) + "1234\n", errors: true)
            #expect(wrong.status != 0 && wrong.text.contains("setup code does not open"), "\(wrong.text)")
            #expect(try await Self.fingerprint(world) == nil, "a wrong code changes nothing")
            let short = try await world.vaultmail(["key", "import-setup", id], input: "1234\n", errors: true)
            #expect(short.status != 0 && short.text.contains("36 digits"), "\(short.text)")

            let imported = try await world.vaultmail(["key", "import-setup", id], input: code + "\n")
            #expect(imported.status == 0 && imported.text.contains(original), "\(imported.text)")
            #expect(try await Self.fingerprint(world) == original)
            let exported = try await world.vaultmail(["key", "export", "work"])
            #expect(try await OpenPGPPeer.fingerprint(of: exported.text, in: home) == original, "it sends the imported key in its Autocrypt header")
            _ = try? await ProcessCapture.run("/usr/bin/gpgconf", ["--homedir", home, "--kill", "all"], timeout: .seconds(10))
        }
    }

    @Test("Web app: Settings → Encryption sends a setup message and shows its code once; the message, opened, offers Import this key with a code field; a wrong code says so, the right one imports; accessible, light, dark and narrow")
    func webApp() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try await world.addAccount()
            try await world.startDaemon()
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            let origin = try await browser.url.components(separatedBy: "/mail")[0]
            try await browser.get(origin + "/settings")
            try await browser.wait("return document.querySelector('#encryption button') !== null")
            try await world.expectAccessible(browser, page: "Settings → Encryption")
            try await browser.js("document.querySelector('#encryption button').click()")
            try await browser.wait("return document.querySelector('#encryption .setup-code') !== null", timeout: 90)
            let shown = try await browser.string("return document.querySelector('#encryption .setup-code-digits').innerText")
            let code = try #require(Self.code(in: shown), "no code shown: \(shown)")
            try await world.expectAccessible(browser, page: "the setup code shown")
            try await world.screenshots(browser, name: "setup-message-code")

            let raw = try await world.smtp.waitForMessages(count: 1)[0].raw
            #expect(!String(decoding: raw, as: UTF8.self).contains(code))
            try world.deliver(raw)
            try await browser.get(origin + "/mail")
            _ = try await browser.waitForCount("#threads .row", timeout: .seconds(90)) { $0 >= 1 }
            try await world.openRow(browser, containing: "Autocrypt Setup Message")
            try await browser.wait("return document.querySelector('#conversation .setup-import input[name=setupCode]') !== null")
            #expect(try await browser.string("return document.querySelector('#conversation .setup-import label').textContent")
                    .contains("begins with \(code.prefix(2))"))
            try await world.expectAccessible(browser, page: "a received setup message")
            try await world.screenshots(browser, name: "setup-message-import")

            try await browser.js("document.querySelector('#conversation .setup-import input[name=setupCode]').value = '1234'")
            try await browser.js("document.querySelector('#conversation .setup-import button').click()")
            try await browser.wait("return document.body.innerText.includes('Not imported')", timeout: 60)
            #expect(try await browser.string("return document.body.innerText").contains("36 digits"))

            try await browser.wait("return document.querySelector('#conversation .setup-import input[name=setupCode]') !== null")
            // Enter in the field imports (its own form: not the conversation's first action).
            try await browser.js("document.querySelector('#conversation .setup-import input[name=setupCode]').value = arguments[0]", [code])
            try await browser.click("#conversation .setup-import input[name=setupCode]")
            try await browser.keys(["ENTER"])
            try await browser.wait("return document.body.innerText.includes('now uses the key from this setup message')", timeout: 90)
            #expect(try await browser.string("return document.querySelector('#conv-title') ? document.querySelector('#conv-title').textContent : ''")
                    .contains("Autocrypt Setup Message"), "still in the conversation, nothing archived")
        }
    }
}
