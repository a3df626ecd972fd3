import Foundation
import Testing
import VaultMailCore
import VaultMailOpenPGP
import VaultMailTesting
@testable import VaultMailWeb

/// Issue 32's composer lock in a real headless Chromium: what sending will do to a message's
/// encryption is shown under the body as recipients and the switch change, worked out by Core
/// over the account's real OpenPGP engine (GnuPG through GPGME), and a send that cannot be
/// encrypted as asked is refused naming who has no key. axe-core on the page.
@Suite("Web app in a browser: the composer's encryption lock (issue 32)", .serialized, .timeLimit(.minutes(4)))
@MainActor
struct ComposerLockBrowserTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let driver = repository.appendingPathComponent("scripts/browser_driver.py").path
    static let axeScript = repository.appendingPathComponent(".build/axe/axe.min.js").path
    static let screenshots = repository.appendingPathComponent(".build/web-screenshots")

    @Test("Alice has a key: 'Encrypted and signed'; adding a recipient without one: 'Not encrypted: no key for …'; Encrypt chosen: the problem is shown and Send is refused naming that recipient, nothing sent; axe finds nothing, light and dark")
    func lockFollowsRecipientsAndSwitch() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.axeScript), "axe-core is missing: run scripts/install-axe.sh")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-lock-\(UUID().uuidString.prefix(8))")
        let engine = GPGMEOpenPGPEngine(directory: directory.appendingPathComponent("openpgp"), passphrases: InMemoryOpenPGPPassphrases())
        var peer: OpenPGPPeer?
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try await WebFixture.with(openPGP: engine) { web in
                let alice = try await OpenPGPPeer(.gnupg, recipient: try await engine.exportPublicKey(for: web.account))
                peer = alice
                _ = try await engine.importPublicKeys(Array(alice.publicKey.utf8), accountId: web.account.id)

                let browser = try await BrowserSession.start(driver: Self.driver)
                defer { browser.stop() }
                let secret = try #require(try WebSecret.load(at: web.web.configuration.secretURL))
                let signIn = try SignInPage.write(configuration: WebConfiguration(port: web.port, home: web.home), secret: secret)
                try await browser.get(signIn.absoluteString)
                try await browser.wait("return location.pathname === '/mail'", timeout: 60)
                try await browser.get(web.origin + "/compose?kind=new&to=alice%40example.org&subject=Plans")
                try await browser.wait("return document.querySelector('#crypto-state') !== null && document.querySelectorAll('#to-suggestions').length === 1", timeout: 30)

                // Rendered with the page: every recipient has a key.
                #expect(try await browser.string("return document.querySelector('#crypto-state').dataset.state") == "encrypted")
                #expect(try await browser.string("return document.querySelector('#crypto-state').textContent")
                        == "Encrypted and signed: only the recipients and you can read it.")

                // A recipient without a key: automatic goes plain, and says why.
                try await browser.js("""
                    const input = document.querySelector('#to'); input.value = 'nokey@example.net';
                    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
                    """)
                try await browser.wait("return document.querySelector('#crypto-state').dataset.state === 'plain'", timeout: 30)
                #expect(try await browser.string("return document.querySelector('#crypto-state').textContent")
                        == "Not encrypted: no key for nokey@example.net.")

                // Encrypt asked for: the problem is shown before sending.
                try await browser.js("""
                    const s = document.querySelector('#encryption'); s.value = 'on';
                    s.dispatchEvent(new Event('change', { bubbles: true }));
                    """)
                try await browser.wait("return document.querySelector('#crypto-state').dataset.state === 'problem'", timeout: 30)
                #expect(try await browser.string("return document.querySelector('#crypto-state').textContent").contains("no key for nokey@example.net"))
                let color = try await browser.string("return getComputedStyle(document.querySelector('#crypto-state')).color")
                let muted = try await browser.string("return getComputedStyle(document.querySelector('.hint-text')).color")
                #expect(color != muted, "the problem stands out from the hints")

                try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
                try await browser.js("document.querySelector('#crypto').scrollIntoView({ block: 'center' })")
                try await browser.screenshot(Self.screenshots.appendingPathComponent("composer-lock-light.png").path)
                try await browser.screenshot(Self.screenshots.appendingPathComponent("composer-lock-dark.png").path, dark: true)
                try await browser.setSize(width: 420, height: 860)
                try await browser.js("document.querySelector('#crypto').scrollIntoView({ block: 'center' })")
                try await browser.screenshot(Self.screenshots.appendingPathComponent("composer-lock-narrow.png").path, width: 420, height: 860)
                try await browser.setSize(width: 1280, height: 800)
                for scheme in ["light", "dark"] {
                    try await browser.call(["cmd": "scheme", "value": scheme])
                    let violations = try await browser.axe(script: Self.axeScript)
                    #expect(violations.isEmpty, "axe (\(scheme)): \(violations.map { "\($0["id"] ?? "?") (\($0["impact"] ?? "?")): \($0["help"] ?? "") at \($0["nodes"] ?? "")" })")
                }
                try await browser.call(["cmd": "scheme", "value": "light"])
                // On narrow screens the line stays within the composer.
                try await browser.setSize(width: 420, height: 860)
                #expect(try await browser.number("""
                    const r = document.querySelector('#crypto-state').getBoundingClientRect(), f = document.querySelector('#composer').getBoundingClientRect();
                    return r.right <= f.right + 1 ? 1 : 0
                    """) == 1)
                try await browser.setSize(width: 1280, height: 800)

                // Send: refused, naming who has no key; nothing goes to the server.
                try await browser.js("document.querySelector('#body').value = 'See you.'; document.querySelector('#body').dispatchEvent(new Event('input', { bubbles: true }))")
                try await browser.wait("return !document.querySelector('#send').disabled", timeout: 30)
                try await browser.click("#send")
                try await browser.wait("return [...document.querySelectorAll('.toast.error')].some(t => t.textContent.includes('no key for nokey@example.net'))", timeout: 30)
                #expect(await web.transport.sent.isEmpty, "nothing was sent")
            }
        } catch {
            await peer?.stop()
            await engine.close()
            throw error
        }
        await peer?.stop()
        await engine.close()
    }
}
